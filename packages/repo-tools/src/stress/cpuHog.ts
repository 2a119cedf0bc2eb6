import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { availableParallelism } from "node:os";

export interface CpuHog {
  /** What keeps the CPU busy, for the run's header. */
  readonly description: string;
  stop(): void;
}

/** Keeps every core busy beside the suite: `stress-ng --cpu N` when Debian's package is installed, else Node busy loops. */
export function startCpuHog(cores: number = availableParallelism()): CpuHog {
  const children: ChildProcess[] = [];
  let description: string;
  if (hasStressNg()) {
    children.push(spawn("stress-ng", ["--cpu", String(cores), "--quiet"], { stdio: "ignore" }));
    description = `stress-ng --cpu ${cores}`;
  } else {
    for (let i = 0; i < cores; i++) {
      children.push(spawn(process.execPath, ["-e", "for(;;){}"], { stdio: "ignore" }));
    }
    description = `${cores} Node busy loop(s) (install stress-ng for the standard hog)`;
  }
  return {
    description,
    stop() {
      for (const child of children) child.kill("SIGKILL");
    },
  };
}

function hasStressNg(): boolean {
  return spawnSync("stress-ng", ["--version"], { stdio: "ignore" }).status === 0;
}
