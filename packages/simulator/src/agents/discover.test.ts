import { silentLogger } from "@racksmith/core";
import { untrustedMachineCertificate } from "@racksmith/server/testing";
import { describe, expect, it, vi } from "vitest";
import type { AgentApi } from "./agentApi.js";
import type { AgentContext } from "./agentContext.js";
import { discoverMachine } from "./discover.js";
import { MachineIdentity } from "./machineIdentity.js";
import type { AgentRpcs, MachineInventory } from "./messages.js";
import { DEFAULT_AGENT_TIMING } from "./types.js";

type DiscoverRequest = AgentRpcs["DiscoverMachine"][0];

const INVENTORY: MachineInventory = {
  serial: "MT0001",
  vendor: "NVIDIA",
  model: "BlueField-3",
  cpus: [],
  memoryBytes: "0",
  disks: [],
  nics: [],
  gpus: [],
  ibPorts: [],
};

/**
 * A service that knows the machine as `answers.machineId` and signs every CSR it gets (with a certificate
 * naming that machine), recording each DiscoverMachine request.
 */
function fakeService(answers: { machineId: string }) {
  const requests: DiscoverRequest[] = [];
  const api = {
    async callAs(_identity: MachineIdentity, name: string, request: DiscoverRequest) {
      if (name !== "DiscoverMachine") throw new Error(`unexpected ${name}`);
      requests.push(request);
      const signed = request.csrPem ? await untrustedMachineCertificate(answers.machineId) : undefined;
      return {
        machineId: answers.machineId,
        kind: "dpu",
        certificate: signed && {
          certificatePem: signed.certificatePem,
          caCertificatePem: signed.certificatePem,
          agentAddress: "127.0.0.1:1",
        },
      };
    },
  } as unknown as AgentApi;
  return { api, requests, csrsSent: () => requests.filter((request) => request.csrPem).length };
}

function contextFor(api: AgentApi, identity: MachineIdentity, keepsIdentity: boolean): AgentContext {
  return {
    api,
    identity,
    mtls: true,
    keepsIdentity,
    onCertificate: () => undefined,
    timing: DEFAULT_AGENT_TIMING,
    signal: new AbortController().signal,
    logger: silentLogger,
    waitAudible: async () => undefined,
  };
}

describe("discoverMachine and the machine's certificate", () => {
  it.each([
    { kind: "a machine that keeps its identity (a DPU)", keepsIdentity: true, csrsAfterThreeBoots: 1 },
    { kind: "a machine booted afresh each time (a host)", keepsIdentity: false, csrsAfterThreeBoots: 3 },
  ])("$kind asks for a certificate $csrsAfterThreeBoots time(s) in three boots", async (row) => {
    const service = fakeService({ machineId: "dpu-1" });
    const identity = new MachineIdentity("dpu-bmc-1");
    const serials: Array<string | undefined> = [];
    for (let boot = 0; boot < 3; boot++) {
      expect(await discoverMachine(contextFor(service.api, identity, row.keepsIdentity), INVENTORY)).toBe(
        "dpu-1",
      );
      serials.push(identity.certificate?.serial);
    }
    expect(service.requests).toHaveLength(3);
    expect(service.csrsSent()).toBe(row.csrsAfterThreeBoots);
    expect(new Set(serials).size).toBe(row.csrsAfterThreeBoots);
    expect(identity.certificate?.machineId).toBe("dpu-1");
  });

  it("asks anew when the service now knows the machine by another id", async () => {
    const answers = { machineId: "dpu-1" };
    const service = fakeService(answers);
    const identity = new MachineIdentity("dpu-bmc-1");
    await discoverMachine(contextFor(service.api, identity, true), INVENTORY);
    answers.machineId = "dpu-2";
    expect(await discoverMachine(contextFor(service.api, identity, true), INVENTORY)).toBe("dpu-2");
    // The boot's first call tried the old certificate; the second sent a CSR for the machine as it is now.
    expect(service.requests.map((request) => request.csrPem !== undefined)).toEqual([true, false, true]);
    expect(identity.certificate?.machineId).toBe("dpu-2");
  });

  it("asks anew at a boot once its certificate is due for renewal", async () => {
    const service = fakeService({ machineId: "dpu-1" });
    const identity = new MachineIdentity("dpu-bmc-1");
    await discoverMachine(contextFor(service.api, identity, true), INVENTORY);
    // 45 minutes on: past two thirds of the certificate's hour.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 45 * 60_000 });
    try {
      expect(identity.fresh()).toBe(false);
      await discoverMachine(contextFor(service.api, identity, true), INVENTORY);
      expect(service.csrsSent()).toBe(2);
      expect(identity.fresh()).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
