// What an integrator does, from the published packages: build and `npm pack` the packages a driver author
// installs, `npm install` the tarballs in a folder outside the workspace, scaffold a driver with
// `racksmith driver new`, build it, run its conformance test and `racksmith driver test`, and list it with
// `racksmith drivers list`. It builds what it packs (a clean clone has no dist/), so it runs for a few minutes.
import { spawn, spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOOL_VERSIONS } from "../src/commands/driverNew/versions.js";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));

/**
 * Built and packed in this order; each stage's packages build two at a time (they depend only on earlier
 * stages). The simulator needs both fabrics; the CLI needs the server, simulator and testkit.
 */
const BUILD_STAGES = [
  ["@racksmith/core"],
  ["@racksmith/server", "@racksmith/testkit", "@racksmith/fabric-ufm", "@racksmith/fabric-nmxm"],
  ["@racksmith/simulator", "@racksmith/driver-dell"],
  ["@racksmith/cli"],
];
const PACKAGES = BUILD_STAGES.flat();

const npmAvailable = spawnSync("npm", ["--version"], { stdio: "ignore" }).status === 0;
if (!npmAvailable) console.info("npm is not available: the pack-install-scaffold test did not run");

/**
 * The environment for the commands run here: without what this test run sets for the workspace (plugins
 * loaded from TypeScript sources, vitest's own variables) and without the npm settings of the `npm test`
 * that started it (its workspace, prefix and package), which would point npm back at the repository.
 */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (
      key === "RACKSMITH_PLUGIN_CONDITIONS" ||
      key === "INIT_CWD" ||
      /^VITEST/i.test(key) ||
      /^npm_(lifecycle|package)_/i.test(key) ||
      /^npm_config_(local_prefix|prefix|global|workspaces?|include_workspace_root)$/i.test(key)
    ) {
      continue;
    }
    env[key] = value;
  }
  delete env.FORCE_COLOR;
  return { ...env, NO_COLOR: "1" };
}

interface Run {
  stdout: string;
  stderr: string;
}

/** Runs a command to its end; a non-zero exit throws with its output. */
function run(command: string, args: readonly string[], cwd: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: cleanEnv(), stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) resolve({ stdout, stderr });
      else reject(new Error(`${command} ${args.join(" ")} (in ${cwd}) exited ${code}\n${stdout}\n${stderr}`));
    });
  });
}

/** Runs `tasks` at most `limit` at a time. */
async function pool(tasks: Array<() => Promise<unknown>>, limit: number): Promise<void> {
  const queue = [...tasks];
  const worker = async (): Promise<void> => {
    for (let task = queue.shift(); task; task = queue.shift()) await task();
  };
  await Promise.all(Array.from({ length: Math.min(limit, queue.length) }, worker));
}

const timings: Array<[string, number]> = [];
async function timed<T>(phase: string, body: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await body();
  } finally {
    timings.push([phase, Math.round((performance.now() - started) / 100) / 10]);
  }
}

describe.runIf(npmAvailable)("packed and installed outside the workspace", () => {
  let work = "";
  let site = "";
  let driverDir = "";
  const node = process.execPath;
  const bin = (path: string): string => join(site, "node_modules", path);
  const racksmith = (args: readonly string[], cwd: string): Promise<Run> =>
    run(node, [bin("@racksmith/cli/bin/racksmith.js"), ...args], cwd);

  beforeAll(async () => {
    work = realpathSync(mkdtempSync(join(tmpdir(), "racksmith-pack-")));
    site = join(work, "site");
    const tarballs = join(work, "tarballs");
    mkdirSync(site);
    mkdirSync(tarballs);

    await timed("build", async () => {
      // The server's gRPC types are generated (git-ignored); turbo generates them before tests, a bare
      // vitest run on a clean clone does not.
      if (!existsSync(join(ROOT, "packages/server/src/api/grpc/generated"))) {
        await run("npm", ["run", "generate", "--workspace", "@racksmith/server"], ROOT);
      }
      for (const stage of BUILD_STAGES) {
        await pool(
          stage.map((name) => () => run("npm", ["run", "build", "--workspace", name], ROOT)),
          2,
        );
      }
    });
    await timed("pack", () =>
      run(
        "npm",
        ["pack", "--pack-destination", tarballs, ...PACKAGES.flatMap((name) => ["--workspace", name])],
        ROOT,
      ),
    );
    writeFileSync(
      join(site, "package.json"),
      `${JSON.stringify({ name: "racksmith-site", version: "0.0.0", private: true, type: "module" }, null, 2)}\n`,
    );
    const packed = readdirSync(tarballs).filter((file) => file.endsWith(".tgz"));
    expect(packed).toHaveLength(PACKAGES.length);
    await timed("install", () =>
      run(
        "npm",
        [
          "install",
          "--prefer-offline",
          "--no-audit",
          "--no-fund",
          "--ignore-scripts",
          ...packed.map((file) => join(tarballs, file)),
          `typescript@${TOOL_VERSIONS.typescript}`,
          `vitest@${TOOL_VERSIONS.vitest}`,
          `@types/node@${TOOL_VERSIONS["@types/node"]}`,
        ],
        site,
      ),
    );
  }, 1_800_000);

  afterAll(() => {
    if (timings.length) {
      console.info(`pack-install-scaffold: ${timings.map(([phase, s]) => `${phase} ${s} s`).join(", ")}`);
    }
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("scaffolds a driver with `racksmith driver new` and builds it with tsc", async () => {
    await timed("scaffold and build", async () => {
      const created = JSON.parse((await racksmith(["driver", "new", "acme", "--json"], site)).stdout) as {
        dir: string;
      };
      driverDir = created.dir;
      expect(driverDir).toBe(join(site, "racksmith-driver-acme"));
      await run(node, [bin("typescript/bin/tsc"), "-p", "."], driverDir);
    });
    expect(readdirSync(join(driverDir, "dist")).sort()).toEqual(
      expect.arrayContaining(["driver.d.ts", "driver.js", "index.d.ts", "index.js"]),
    );
  }, 300_000);

  it("passes its own conformance test as generated", async () => {
    const test = await timed("scaffold's vitest", () =>
      run(node, [bin("vitest/vitest.mjs"), "run", "--reporter=verbose"], driverDir),
    );
    expect(test.stdout).toMatch(/passes the conformance suite/);
    expect(test.stdout).toMatch(/Tests\s+2 passed/);
  }, 300_000);

  it("passes `racksmith driver test . --mockup mockups/example`", async () => {
    const report = JSON.parse(
      (
        await timed("driver test", () =>
          racksmith(["driver", "test", ".", "--mockup", "mockups/example", "--json"], driverDir),
        )
      ).stdout,
    ) as { driver: string; passed: boolean; results: Array<{ capability: string; status: string }> };
    expect(report).toMatchObject({ driver: "acme", passed: true });
    expect(report.results.find((r) => r.capability === "detect")?.status).toBe("pass");
  }, 300_000);

  it("lists the scaffolded driver and @racksmith/driver-dell with `racksmith drivers list`", async () => {
    writeFileSync(
      join(site, "racksmith.yaml"),
      'plugins:\n  - "./racksmith-driver-acme"\n  - "@racksmith/driver-dell"\n',
    );
    const listed = JSON.parse(
      (await timed("drivers list", () => racksmith(["drivers", "list", "--json"], site))).stdout,
    ) as Array<{ name: string; package: string }>;
    expect(listed.map(({ name, package: from }) => [name, from])).toEqual([
      ["redfish-standard", "@racksmith/core"],
      ["acme", "racksmith-driver-acme"],
      ["dell", "@racksmith/driver-dell"],
    ]);
  }, 300_000);

  it("resolves plugin names from the racksmith installation for a config kept in another folder", async () => {
    const elsewhere = join(work, "elsewhere");
    mkdirSync(elsewhere);
    writeFileSync(join(elsewhere, "racksmith.yaml"), 'plugins:\n  - "@racksmith/driver-dell"\n');
    const listed = JSON.parse(
      (
        await racksmith(
          ["drivers", "list", "--config", join(elsewhere, "racksmith.yaml"), "--json"],
          elsewhere,
        )
      ).stdout,
    ) as Array<{ name: string }>;
    expect(listed.map((d) => d.name)).toEqual(["redfish-standard", "dell"]);
  }, 300_000);
});
