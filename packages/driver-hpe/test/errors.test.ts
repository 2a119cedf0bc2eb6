import { PasswordChangeRequiredError, probeService, RedfishClient, silentLogger } from "@racksmith/core";
import { MockupServer } from "@racksmith/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hpeDriverDefinition } from "../src/index.js";
import { hpeMockupBehaviors } from "../src/testing/index.js";
import { CREDENTIALS, MOCKUPS } from "./support/mockups.js";

// An iLO that still has its factory password: everything but the password change is refused with 403.
let server: MockupServer;
let client: RedfishClient;
beforeAll(async () => {
  server = await MockupServer.start({
    root: MOCKUPS.gen11,
    auth: "password-change-required",
    credentials: CREDENTIALS,
    behaviors: hpeMockupBehaviors,
  });
  client = new RedfishClient({ address: server.url, credentials: CREDENTIALS, retry: { retries: 0 } });
});
afterAll(async () => {
  await client.close();
  await server.stop();
});

describe("a BMC that requires a password change first", () => {
  it("is still detected (the service root is open), and every operation fails with a typed error", async () => {
    const probe = await probeService(client);
    expect(hpeDriverDefinition.detect(probe.serviceRoot, probe)).toBe(95);
    const driver = hpeDriverDefinition.create(client, { logger: silentLogger, probe });
    for (const operation of [
      () => driver.lockdownStatus(),
      () => driver.machineSetup({}),
      () => driver.bios(),
    ]) {
      const error = await operation().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PasswordChangeRequiredError);
      expect(error).toMatchObject({ code: "password_change_required", httpStatus: 403 });
      expect(
        JSON.stringify({
          message: (error as Error).message,
          details: (error as PasswordChangeRequiredError).details,
        }),
      ).not.toContain(CREDENTIALS.password);
    }
  });
});
