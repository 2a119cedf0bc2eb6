import { captureLogger } from "@racksmith/server/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeBmc, sendJson } from "../../test/support/fakeBmc.js";
import { RedfishClient } from "./client.js";

const PASSWORD = "Very-Secret-42";
const TOKEN = "tok-d41d8cd98f00b204e980";

describe("secrets never reach logs or errors", () => {
  let bmc: FakeBmc;
  beforeAll(async () => {
    bmc = await FakeBmc.start((request, response) => {
      if (request.method === "POST" && request.url.endsWith("/Sessions")) {
        return sendJson(
          response,
          201,
          {},
          { "X-Auth-Token": TOKEN, Location: "/redfish/v1/SessionService/Sessions/1" },
        );
      }
      if (request.url === "/redfish/v1/echo") {
        // A careless BMC that echoes what it was sent into its error body.
        return sendJson(response, 500, {
          error: {
            code: "x",
            message: `bad token ${String(request.headers["x-auth-token"])} for ${request.body}`,
          },
        });
      }
      if (request.url === "/redfish/v1/garbage") {
        response.writeHead(200, { "Content-Type": "text/plain" });
        return response.end(`session ${TOKEN} password ${PASSWORD}`);
      }
      return sendJson(response, 200, { "@odata.id": request.url });
    });
  });
  afterAll(() => bmc.stop());

  it("scrubs passwords the request carried when the BMC echoes them", async () => {
    const client = new RedfishClient({ address: bmc.url });
    const error = (await client
      .patch("/redfish/v1/echo", { Password: "New-Secret-99" }, { secrets: ["uefi-Pw-77"] })
      .catch((e: unknown) => e)) as Error;
    const text = `${error.message} ${JSON.stringify(error)}`;
    expect(text).not.toContain("New-Secret-99");
    expect(text).toContain("[redacted]");
    await client.close();
  });

  it("across login, requests, errors and logout", async () => {
    const logs = captureLogger();
    const address = bmc.url.replace("http://", `http://admin:${PASSWORD}@`);
    const client = new RedfishClient({ address, auth: "session", logger: logs.logger });
    const texts: string[] = [client.displayAddress];
    await client.get("/redfish/v1/Systems");
    const echoed = (await client
      .post("/redfish/v1/echo", { Password: PASSWORD })
      .catch((e: unknown) => e)) as Error;
    texts.push(echoed.message, JSON.stringify(echoed), String(echoed.stack));
    for (const path of ["/redfish/v1/echo", "/redfish/v1/garbage"]) {
      const readError = (await client.get(path).catch((e: unknown) => e)) as Error;
      expect(readError).toBeInstanceOf(Error);
      texts.push(readError.message, JSON.stringify(readError), String(readError.stack));
    }
    await client.close();
    const everything = [...logs.lines(), ...texts].join("\n");
    expect(logs.records.length).toBeGreaterThan(3);
    expect(everything).not.toContain(PASSWORD);
    expect(everything).not.toContain(TOKEN);
    expect(everything).toContain("[redacted]");
  });
});
