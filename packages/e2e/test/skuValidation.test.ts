import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { runCliInMemory, runCliJson } from "@racksmith/cli";
import type { HealthReport } from "@racksmith/core/health";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { E2E_DATABASES } from "./support/databases.js";
import { hostLabels, untilHostLabels } from "./support/hostLabels.js";
import { simulatedSite } from "./support/simulatedSite.js";
import { waitFor } from "./support/waitFor.js";

const HOSTS = 5;

interface HostSku {
  hostId: string;
  skuId: string | null;
  verdict: {
    kind: string;
    skuId?: string | null;
    mismatches?: Array<{ component: string; message: string }>;
  } | null;
  state: string;
}

// Acceptance (issue 21, items 1 and 2): SKU validation over a simulated site with @racksmith/validation-sku
// loaded — matching hosts reach Ready, a host missing a GPU waits in bomValidating with SkuVerificationFailed
// naming it until `sku verify` after the GPU is back; a SKU generated from a Ready host verifies on another of
// the same model and fails, with the difference, on another model.
describe.each(E2E_DATABASES)("SKU validation of a simulated site on $kind", (database) => {
  let site: Awaited<ReturnType<typeof simulatedSite>>;
  let dir: string;
  const cli = <T>(...argv: string[]) => runCliJson<T>([...argv, "--server", site.url, "--token", site.token]);
  const hostIds = new Map<string, string>();
  let dell1Mac = "";
  /** Host machine ids by vendor: the two Dell hosts first (`dell-0`, `dell-1`), then one of each other. */
  const host = (key: string) => hostIds.get(key) ?? "";
  const labels = () => hostLabels(site);
  const until = (what: string, check: (labels: Map<string, string>) => boolean) =>
    untilHostLabels(site, what, check);
  const skuFile = async (name: string, document: unknown) => {
    const file = join(dir, name);
    await writeFile(file, JSON.stringify(document));
    return file;
  };

  beforeAll(async () => {
    site = await simulatedSite(database, { hosts: HOSTS, seed: 4, plugins: ["@racksmith/validation-sku"] });
    dir = site.configFile.replace(/[/\\][^/\\]*$/, "");
    const hostBmcs = site.fleet.bmcs.filter((bmc) => bmc.kind === "host");
    const dells = hostBmcs.filter((bmc) => bmc.vendor === "dell");
    if (dells.length < 2) throw new Error(`the scenario has ${dells.length} Dell hosts; the test needs two`);
    // One GPU falls off the bus of the second Dell host before its first discovery.
    dell1Mac = dells[1]?.mac ?? "";
    site.agents.setMissingGpus(dell1Mac, 1);
    await until("every host waiting for a SKU", (states) => {
      const values = [...states.values()];
      return (
        values.length === HOSTS && values.every((label) => label === "bomValidating/waitingForSkuAssignment")
      );
    });
    const machines = await cli<Array<{ id: string; bmcMac: string; kind: string }>>("machine", "list");
    const idOf = (mac: string) => machines.find((m) => m.bmcMac === mac)?.id ?? "";
    hostIds.set("dell-0", idOf(dells[0]?.mac ?? ""));
    hostIds.set("dell-1", idOf(dells[1]?.mac ?? ""));
    for (const bmc of hostBmcs.filter((b) => b.vendor !== "dell")) hostIds.set(bmc.vendor, idOf(bmc.mac));
  }, 1_200_000);
  afterAll(async () => {
    await site?.close();
  });

  it("lets hosts matching a SKU reach Ready; holds a host missing a GPU until it is back and verified", async () => {
    // One SKU per model, generated from a host of that model (the Dell one from the host with every GPU).
    for (const key of ["dell-0", "lenovo", "hpe", "supermicro"]) {
      const document = await cli<{ id: string }>("sku", "generate", host(key));
      await cli("sku", "create", await skuFile(`${key}.json`, document));
    }
    await until("every host but dell-1 Ready", (states) =>
      [...states].every(([id, label]) => (id === host("dell-1") ? true : label === "ready")),
    );
    const dellSku = (await cli<HostSku>("sku", "status", host("dell-0"))).skuId ?? "";
    expect(dellSku).not.toBe("");
    // Nothing matched the host missing a GPU; the operator assigns it the Dell SKU.
    expect((await labels()).get(host("dell-1"))).toBe("bomValidating/waitingForSkuAssignment");
    await cli("sku", "assign", dellSku, host("dell-1"));
    await until(
      "dell-1 failing SKU verification",
      (states) => states.get(host("dell-1")) === "bomValidating/skuVerificationFailed",
    );
    const failed = await cli<HostSku>("sku", "status", host("dell-1"));
    expect(failed.verdict).toMatchObject({ kind: "skuVerificationFailed", skuId: dellSku });
    expect(failed.verdict?.mismatches).toEqual([
      { component: "gpu", message: expect.stringMatching(/^gpu .+: expected 4, found 3$/) },
    ]);
    const health = await cli<HealthReport>("health", "show", host("dell-1"));
    expect(health.alerts).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          id: "SkuValidation",
          target: dellSku,
          classifications: expect.arrayContaining(["PreventAllocations"]),
          message: expect.stringMatching(/expected 4, found 3/),
        }),
      ]),
    );
    const refused = await runCliInMemory([
      "instance",
      "allocate",
      "--machine",
      host("dell-1"),
      "--tenant",
      "acme",
      "--server",
      site.url,
      "--token",
      site.token,
    ]);
    expect(refused.code).toBe(1);

    // The GPU is reseated; a verification from a fresh inventory lets the host on to Ready.
    site.agents.setMissingGpus(dell1Mac, 0);
    await cli("sku", "verify", host("dell-1"));
    await until("dell-1 Ready", (states) => states.get(host("dell-1")) === "ready");
    expect((await cli<HostSku>("sku", "status", host("dell-1"))).verdict).toEqual({
      kind: "passed",
      skuId: dellSku,
    });
    const healthy = await cli<HealthReport>("health", "show", host("dell-1"));
    expect(healthy.alerts.filter((alert) => alert.id === "SkuValidation")).toEqual([]);
  });

  it("verifies a SKU generated from a Ready host on another of its model, and fails it with the diff on another model", async () => {
    const document = await cli<{ id: string }>("sku", "generate", host("dell-0"), "--id", "dell.copy.1");
    const created = await cli<{ id: string; hostIds: string[] }>(
      "sku",
      "create",
      await skuFile("copy.json", document),
    );
    // Every host has a SKU already: a new one is not matched to any.
    expect(created).toMatchObject({ id: "dell.copy.1", hostIds: [] });

    await cli("sku", "assign", "dell.copy.1", host("dell-1"), host("lenovo"));
    await until(
      "the Lenovo host failing the Dell SKU",
      (states) => states.get(host("lenovo")) === "bomValidating/skuVerificationFailed",
    );
    // The Dell host went through the same verification, on Ready: it is back once its verdict names the new SKU.
    await waitFor(
      async () => {
        const status = await cli<HostSku>("sku", "status", host("dell-1"));
        return status.state === "ready" && status.verdict?.skuId === "dell.copy.1" && status;
      },
      { what: "dell-1 verified against the copy", timeoutMs: 900_000, everyMs: 500 },
    );
    const same = await cli<HostSku>("sku", "status", host("dell-1"));
    expect(same).toMatchObject({ skuId: "dell.copy.1", verdict: { kind: "passed", skuId: "dell.copy.1" } });
    const other = await cli<HostSku>("sku", "status", host("lenovo"));
    expect(other.verdict?.kind).toBe("skuVerificationFailed");
    expect(other.verdict?.mismatches).toEqual(
      expect.arrayContaining([expect.objectContaining({ component: "chassis" })]),
    );
    const shown = await cli<{ hostIds: string[] }>("sku", "show", "dell.copy.1");
    expect(shown.hostIds.sort()).toEqual([host("dell-1"), host("lenovo")].sort());
  });
});
