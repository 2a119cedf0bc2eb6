import { RedfishClient, silentLogger } from "@racksmith/core";
import { MockupServer } from "@racksmith/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lenovoDriver } from "../src/index.js";
import { XCC_BEHAVIORS } from "../src/testing/index.js";
import { LENOVO_MOCKUPS } from "./support/lenovoMockups.js";

// A fresh XCC (USERID / PASSW0RD) refuses everything until the factory password is changed.
const FACTORY = { username: "USERID", password: "PASSW0RD" };

let server: MockupServer;
let client: RedfishClient;
beforeAll(async () => {
  server = await MockupServer.start({
    root: LENOVO_MOCKUPS.sr670v2,
    auth: "password-change-required",
    credentials: FACTORY,
    behaviors: XCC_BEHAVIORS,
  });
  client = new RedfishClient({ address: server.url, credentials: FACTORY, retry: { retries: 0 } });
});
afterAll(async () => {
  await client.close();
  await server.stop();
});

describe("an XCC that requires a password change", () => {
  it("fails every operation with password_change_required and never shows the password", async () => {
    const driver = lenovoDriver.create(client, { logger: silentLogger });
    for (const operation of [
      () => driver.lockdownStatus(),
      () => driver.bios(),
      () => driver.machineSetupStatus({}),
    ]) {
      const error = await operation().catch((e: unknown) => e);
      expect(error).toMatchObject({
        code: "password_change_required",
        status: "PERMISSION_DENIED",
        httpStatus: 403,
      });
      expect(`${String(error)} ${JSON.stringify(error)}`).not.toContain(FACTORY.password);
    }
  });
});
