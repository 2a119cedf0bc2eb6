import { silentLogger } from "@racksmith/core";
import { disabledNvLinkFabric } from "@racksmith/core/nvlink";
import { Registry } from "prom-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_CONFIG, type LoadedConfig } from "../../config/index.js";
import { INSTANCE_FABRICS } from "../../lifecycle/fabrics/index.js";
import { Extensions } from "../../service/extensions.js";
import type { FeatureContext } from "../../service/feature.js";
import { openTestDatabase, type TestDatabase } from "../../testing/testDatabase.js";
import { createNvLinkFeature } from "./feature.js";

describe("the nvlink feature", () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await openTestDatabase("nvlink_feature");
  });
  afterAll(async () => {
    await test?.close();
  });

  const context = (nvlink: Record<string, unknown> | undefined, names: string[] = []): FeatureContext => {
    const config: LoadedConfig = {
      config: { ...DEFAULT_CONFIG, fabrics: nvlink ? { nvlink } : {} },
      file: undefined,
      baseDir: ".",
    };
    return {
      config,
      database: test.database,
      engine: {} as FeatureContext["engine"],
      host: {
        nvlinkFabrics: () =>
          names.map((name) => ({
            definition: { name, create: () => ({ ...disabledNvLinkFabric(), name }) },
          })),
      } as unknown as FeatureContext["host"],
      logger: silentLogger,
      metrics: new Registry(),
      env: {},
      processorId: "test",
      extensions: new Extensions(),
      agentCertificates: { issue: () => Promise.reject(new Error("no agent certificates here")) },
      workloadIdentities: { issue: () => Promise.reject(new Error("no workload identities here")) },
    };
  };

  it("without fabrics.nvlink adds only its APIs, no instance fabric", async () => {
    const ctx = context(undefined);
    const runtime = await createNvLinkFeature().setup(ctx);
    expect(runtime.rest).toBeTypeOf("function");
    expect(runtime.grpc).toHaveLength(1);
    expect(runtime.start).toBeUndefined();
    expect(ctx.extensions.list(INSTANCE_FABRICS)).toEqual([]);
  });

  it("names the fabric key when no loaded plugin registers that fabric, or when several do", async () => {
    await expect(createNvLinkFeature().setup(context({ fabric: "nope" }, ["nmxm"]))).rejects.toThrow(
      /fabrics\.nvlink\.fabric: no loaded plugin registers an NVLink fabric named "nope" \(registered: nmxm\)/,
    );
    await expect(createNvLinkFeature().setup(context({}, ["a", "b"]))).rejects.toThrow(
      /several NVLink fabrics are registered \(a, b\); name one with fabrics\.nvlink\.fabric/,
    );
    await expect(createNvLinkFeature().setup(context({}, []))).rejects.toThrow(/@racksmith\/fabric-nmxm/);
  });

  it("with fabrics.nvlink adds the nvlink instance fabric and runs the monitor", async () => {
    const ctx = context({ endpoint: "http://nmxm" }, ["nmxm"]);
    const runtime = await createNvLinkFeature().setup(ctx);
    expect(ctx.extensions.list(INSTANCE_FABRICS).map((f) => f.name)).toEqual(["nvlink"]);
    await runtime.start?.();
    await runtime.stop?.();
  });
});
