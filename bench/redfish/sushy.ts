import { execFile, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { RedfishCredentials } from "@racksmith/core/redfish";

const PYTHON = "/usr/bin/python3";

export interface SushyFigures {
  explorations: number;
  seconds: number;
  cpuMs: number;
  sushy: string;
  systems: number;
  macs: number;
  firmware: number;
}

/** Why sushy cannot run here, or undefined when `import sushy` works with /usr/bin/python3. */
export function sushyMissing(): string | undefined {
  const check = spawnSync(PYTHON, ["-c", "import sushy"], { encoding: "utf8" });
  if (check.error) return `${PYTHON} cannot run (${check.error.message})`;
  if (check.status !== 0) return "python3-sushy is not installed (apt-get install -y python3-sushy)";
  return undefined;
}

/** Runs sushy_explore.py against `url` for `seconds` and returns the figures it prints. */
export function runSushy(
  url: string,
  credentials: RedfishCredentials,
  seconds: number,
): Promise<SushyFigures> {
  const script = fileURLToPath(new URL("./sushy_explore.py", import.meta.url));
  const args = [script, url, credentials.username, credentials.password, String(seconds)];
  return new Promise((resolve, reject) => {
    execFile(PYTHON, args, { timeout: (seconds + 120) * 1000 }, (error, stdout, stderr) => {
      if (error) {
        reject(new Error(`sushy_explore.py failed: ${error.message}\n${stderr}`));
        return;
      }
      resolve(JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as SushyFigures);
    });
  });
}
