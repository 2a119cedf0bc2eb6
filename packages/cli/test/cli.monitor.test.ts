import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { runCli } from "../src/main.js";
import { memoryIo } from "./support/runCliForTest.js";

/** Waits for what the running command printed; the timeout only bounds a hang, however busy the machine. */
async function until(condition: () => boolean): Promise<void> {
  // Embedded PostgreSQL takes a few seconds to start on a busy machine.
  await vi.waitFor(() => expect(condition()).toBe(true), { timeout: 90_000, interval: 20 });
}

function projectWith(config: string): string {
  const dir = mkdtempSync(join(tmpdir(), "racksmith-monitor-"));
  writeFileSync(join(dir, "racksmith.yaml"), config);
  return dir;
}

describe("racksmith monitor", () => {
  it("serves its metrics, stops on a signal; --once runs one pass and prints its figures", async () => {
    const dir = projectWith("log:\n  level: warn\nmonitor:\n  sensorIntervalMs: 60000\n");
    const io = memoryIo(dir);
    const running = runCli(["monitor", "--data-dir", "data", "--metrics", "127.0.0.1:0"], io);
    await until(() => io.err.join("").includes("metrics on"));
    const url = /metrics on (\S+)/.exec(io.err.join(""))?.[1];
    const metrics = await (await fetch(String(url))).text();
    expect(metrics).toContain("# TYPE racksmith_bmc_sensor_reading gauge");
    io.stop();
    expect(await running).toBe(0);

    const once = memoryIo(dir);
    expect(await runCli(["monitor", "--data-dir", "data", "--once"], once)).toBe(0);
    expect(JSON.parse(once.out.join("").trim().split("\n").at(-1) ?? "")).toMatchObject({
      machines: 0,
      errors: 0,
    });
  }, 120_000);

  it("refuses a bad --metrics address", async () => {
    const io = memoryIo(projectWith(""));
    expect(await runCli(["monitor", "--metrics", "nowhere"], io)).toBe(1);
    expect(io.err.join("")).toContain("--metrics must be host:port");
  });
});
