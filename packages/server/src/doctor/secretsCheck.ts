import type { Stats } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import type { LoadedConfig } from "../config/index.js";
import { formatMode, modeProblem, privateModeFix } from "../inventory/index.js";
import { displayPath } from "./paths.js";
import { CREDENTIALS_DIRECTORY_KEY, KEY_FILE_KEY, type SecretPath, secretPaths } from "./secretPaths.js";
import { type DoctorCheck, finding } from "./types.js";

// POSIX modes mean nothing on Windows, where ACLs protect files (as the credential store treats them).
const CHECKS_MODES = process.platform !== "win32";
const SECRET_SUFFIX = ".secret";

type Inspected =
  | { state: "private"; shown: string }
  | { state: "absent"; shown: string }
  | { state: "problem"; check: DoctorCheck };

/**
 * Every secret file and directory the config names must exist (unless `credentials init` makes it) and be
 * private to its owner. Files are only stat'ed: doctor never reads a secret.
 */
export async function checkSecrets(loaded: LoadedConfig, cwd: string): Promise<DoctorCheck[]> {
  const file = loaded.file ? displayPath(loaded.file, cwd) : "racksmith.yaml";
  const problems: DoctorCheck[] = [];
  const privateOnes: string[] = [];
  const later: string[] = [];
  const states = new Map<string, Inspected["state"]>();
  let storedSecrets = 0;
  const secrets = secretPaths(loaded.config, loaded.baseDir);
  for (const secret of secrets) {
    const result = await inspect(secret, cwd, file);
    states.set(secret.key, result.state);
    if (result.state === "problem") problems.push(result.check);
    else (result.state === "private" ? privateOnes : later).push(result.shown);
    if (secret.key === CREDENTIALS_DIRECTORY_KEY && result.state !== "absent") {
      const inside = await storedSecretProblems(secret.path, cwd);
      storedSecrets = inside.count;
      problems.push(...inside.problems);
    }
  }
  const keyFile = secrets.find((secret) => secret.key === KEY_FILE_KEY);
  if (storedSecrets > 0 && keyFile && states.get(KEY_FILE_KEY) === "absent") {
    problems.push(
      finding(
        "secrets",
        "fail",
        `${storedSecrets} stored secret(s) cannot be decrypted: the key file ${displayPath(keyFile.path, cwd)} (${KEY_FILE_KEY}) does not exist`,
        `restore the key file from your backup, or set ${KEY_FILE_KEY} in ${file} to where it is`,
      ),
    );
  }
  if (problems.length > 0) return problems;
  const parts = [
    privateOnes.length ? `private: ${privateOnes.join(", ")}` : "",
    later.length ? `not created yet: ${later.join(", ")} (\`racksmith credentials init\` creates them)` : "",
  ].filter(Boolean);
  return [finding("secrets", "ok", parts.join("; ") || "no secret files configured")];
}

async function inspect(secret: SecretPath, cwd: string, file: string): Promise<Inspected> {
  const shown = displayPath(secret.path, cwd);
  const named = `${shown} (${secret.key})`;
  let info: Stats;
  try {
    info = await stat(secret.path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    if (code === "ENOENT" && secret.createdLater) return { state: "absent", shown };
    return {
      state: "problem",
      check:
        code === "ENOENT"
          ? finding(
              "secrets",
              "fail",
              `${named} does not exist`,
              `create it (chmod 600), or fix ${secret.key} in ${file}`,
            )
          : finding(
              "secrets",
              "fail",
              `cannot check ${named}: ${code}`,
              "make it and its parent directories accessible to the user that runs racksmith",
            ),
    };
  }
  const kind = info.isDirectory() ? "directory" : "file";
  if (kind !== secret.kind) {
    return {
      state: "problem",
      check: finding(
        "secrets",
        "fail",
        `${named} is a ${kind}, not a ${secret.kind}`,
        `point ${secret.key} in ${file} at a ${secret.kind}`,
      ),
    };
  }
  const problem = CHECKS_MODES ? modeProblem(info.mode) : undefined;
  if (problem) {
    return {
      state: "problem",
      check: finding(
        "secrets",
        "fail",
        `${named} is ${problem} (mode ${formatMode(info.mode)})`,
        privateModeFix(shown, kind),
      ),
    };
  }
  return { state: "private", shown };
}

/** The sealed secrets in the store's directory: how many, and any another user could read. */
async function storedSecretProblems(
  directory: string,
  cwd: string,
): Promise<{ count: number; problems: DoctorCheck[] }> {
  const names = (await readdir(directory).catch(() => [])).filter((name) => name.endsWith(SECRET_SUFFIX));
  const problems: DoctorCheck[] = [];
  for (const name of names) {
    const path = join(directory, name);
    const mode = await stat(path).then(
      (info) => info.mode,
      () => undefined,
    );
    const problem = mode !== undefined && CHECKS_MODES ? modeProblem(mode) : undefined;
    if (problem && mode !== undefined) {
      const shown = displayPath(path, cwd);
      problems.push(
        finding(
          "secrets",
          "fail",
          `${shown} is ${problem} (mode ${formatMode(mode)})`,
          privateModeFix(shown, "file"),
        ),
      );
    }
  }
  return { count: names.length, problems };
}
