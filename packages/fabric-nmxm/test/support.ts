import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Logger } from "@racksmith/core";
import type { NvLinkFabric } from "@racksmith/core/nvlink";
import { createNmxmFabric } from "../src/index.js";
import { NmxmSimulator, type NmxmSimulatorOptions } from "../src/simulator/index.js";

export interface Harness {
  sim: NmxmSimulator;
  fabric: NvLinkFabric;
  dir: string;
  /** Every log line the fabric wrote, fields included, as text. */
  logs: string[];
  logger: Logger;
  /** Another fabric on the same simulator with different config. */
  connect(config?: Record<string, unknown>): Promise<NvLinkFabric>;
  close(): Promise<void>;
}

export function capturingLogger(lines: string[]): Logger {
  const write = (level: string) => (fields: Record<string, unknown>, message: string) =>
    void lines.push(`${level} ${message} ${JSON.stringify(fields)}`);
  return { debug: write("debug"), info: write("info"), warn: write("warn"), error: write("error") };
}

export async function startHarness(
  options: NmxmSimulatorOptions = {},
  config: Record<string, unknown> = {},
): Promise<Harness> {
  const sim = await NmxmSimulator.start(options);
  const dir = await mkdtemp(join(tmpdir(), "racksmith-nmxm-"));
  // A trailing newline, as `echo` writes it: not part of the password.
  await writeFile(join(dir, "password"), `${sim.password}\n`);
  const logs: string[] = [];
  const logger = capturingLogger(logs);
  const opened: NvLinkFabric[] = [];
  const connect = async (extra: Record<string, unknown> = {}): Promise<NvLinkFabric> => {
    const fabric = await createNmxmFabric(
      { endpoint: sim.url, username: sim.username, passwordFile: "password", operationPollMs: 10, ...extra },
      { logger, baseDir: dir },
    );
    opened.push(fabric);
    return fabric;
  };
  const fabric = await connect(config);
  return {
    sim,
    fabric,
    dir,
    logs,
    logger,
    connect,
    async close() {
      await Promise.all(opened.map((candidate) => candidate.close()));
      await sim.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Catches the rejection of a promise that must fail. */
export async function failure(promise: Promise<unknown>): Promise<Error & { code?: string }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { code?: string };
  }
  throw new Error("expected the call to fail");
}

/** Takes GPUs out of the partitions holding them, as the core does before placing them (NMX-M refuses otherwise). */
export async function freeGpus(fabric: NvLinkFabric, gpus: readonly string[]): Promise<void> {
  for (const partition of await fabric.listPartitions()) {
    if (!partition.gpus.some((gpu) => gpus.includes(gpu))) continue;
    const keep = partition.gpus.filter((gpu) => !gpus.includes(gpu));
    const { operationId } =
      keep.length > 0
        ? await fabric.updatePartition(partition.id, { gpus: keep })
        : await fabric.deletePartition(partition.id);
    let operation = await fabric.waitForOperation(operationId);
    // A test may set a short operationTimeoutMs: on a busy machine, wait again until the operation ends.
    while (operation.status === "pending" || operation.status === "in-progress") {
      operation = await fabric.waitForOperation(operationId);
    }
    if (operation.status !== "completed")
      throw new Error(`freeing GPUs: ${operation.status} ${operation.error}`);
  }
}
