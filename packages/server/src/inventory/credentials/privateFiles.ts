import { randomBytes } from "node:crypto";
import { constants, type Stats } from "node:fs";
import { link, mkdir, open, rename, stat, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { CredentialFileError, CredentialPermissionsError } from "./errors.js";
import { isPrivateMode } from "./fileModes.js";

// POSIX modes mean nothing on Windows, where ACLs protect files.
const CHECKS_MODES = process.platform !== "win32";

/** Secret-free errno reason (`ENOENT`, `EACCES`…) of a failed file operation. */
export function errnoReason(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
}

/** Refuses a file or directory other users could read or write, naming the chmod that fixes it. */
export async function assertPrivate(path: string): Promise<"file" | "directory" | undefined> {
  const info = await privateStat(path);
  if (!info) return undefined;
  return info.isDirectory() ? "directory" : "file";
}

/** {@link assertPrivate}, answering with what `stat` said (undefined: no such path). */
export async function privateStat(path: string): Promise<Stats | undefined> {
  let info: Stats;
  try {
    info = await stat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new CredentialFileError(path, `cannot read: ${errnoReason(error)}`);
  }
  if (CHECKS_MODES && !isPrivateMode(info.mode)) {
    throw new CredentialPermissionsError(path, info.mode, info.isDirectory());
  }
  return info;
}

/** Creates a directory only its owner can enter (parents too, same mode). */
export async function makePrivateDirectory(path: string): Promise<void> {
  try {
    await mkdir(path, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new CredentialFileError(path, `cannot create: ${errnoReason(error)}`);
  }
}

/**
 * Writes a file only its owner can read, atomically: a temporary file in the same directory, flushed to
 * disk, then renamed over the target — a crash leaves the old content or the new one, never half of it.
 * `exclusive` refuses to replace an existing file (EEXIST).
 */
export async function writePrivateFile(path: string, content: string, options: { exclusive?: boolean } = {}) {
  const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString("hex")}.tmp`);
  try {
    const handle = await open(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
    try {
      await handle.writeFile(content, "utf8");
      await handle.sync();
    } finally {
      await handle.close();
    }
    // A hard link fails with EEXIST atomically, where checking first and renaming would race.
    if (options.exclusive) await link(temporary, path);
    else await rename(temporary, path);
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
  await syncDirectory(dirname(path));
}

// The rename is durable only once the directory entry is flushed; not every platform allows it.
async function syncDirectory(path: string): Promise<void> {
  const handle = await open(path, constants.O_RDONLY).catch(() => undefined);
  await handle
    ?.sync()
    .catch(() => undefined)
    .finally(() => handle.close());
}
