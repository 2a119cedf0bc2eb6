import { createServer } from "node:net";
import { untrustedMachineCertificate } from "@racksmith/server/testing";
import { afterEach, describe, expect, it } from "vitest";
import { FakeAgentServer } from "./__support__/fakeAgentServer.js";
import { AgentApi } from "./agentApi.js";
import { MachineIdentity } from "./machineIdentity.js";
import { AgentStatsCounter } from "./stats.js";

/** An address nothing listens on any more (an agent listener of a service since restarted elsewhere). */
async function deadAddress(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return `127.0.0.1:${port}`;
}

let server: FakeAgentServer | undefined;
let api: AgentApi | undefined;
afterEach(async () => {
  api?.close();
  server?.stop();
});

describe("AgentApi.callAs", () => {
  it("drops a certificate whose agent listener is gone, answering the call the shared way", async () => {
    server = await FakeAgentServer.start();
    api = new AgentApi(server.address, new AgentStatsCounter(), 5_000, "token");
    const identity = new MachineIdentity("dpu-bmc-1");
    const signed = await untrustedMachineCertificate("dpu-1");
    // The certificate's own key as the identity's pending one (no CA here signs the identity's CSR).
    Object.assign(identity, { pending: { privateKeyPem: signed.privateKeyPem, csrPem: "" } });
    identity.accept(
      {
        certificatePem: signed.certificatePem,
        caCertificatePem: signed.certificatePem,
        agentAddress: await deadAddress(),
      },
      "dpu-1",
    );
    expect(identity.certificate).toBeDefined();

    const answer = await api.callAs(
      identity,
      "AgentControl",
      { machineId: "host-1" },
      new AbortController().signal,
    );
    expect(answer).toMatchObject({ action: "noop" });
    expect(server.of("AgentControl")).toHaveLength(1);
    // The next discovery asks for a certificate naming the listener where it is now.
    expect(identity.certificate).toBeUndefined();
    expect(identity.fresh()).toBe(false);
  });
});
