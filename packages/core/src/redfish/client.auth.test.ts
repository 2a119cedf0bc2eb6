import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeBmc, redfishError, sendJson } from "../../test/support/fakeBmc.js";
import { RedfishClient } from "./client.js";
import { PasswordChangeRequiredError, RedfishHttpError } from "./errors.js";

const PASSWORD = "s3cret-Passw0rd";

describe("session authentication", () => {
  let bmc: FakeBmc;
  let tokens = new Set<string>();
  let issued = 0;

  beforeAll(async () => {
    bmc = await FakeBmc.start((request, response) => {
      if (request.method === "POST" && request.url === "/redfish/v1/SessionService/Sessions") {
        const body = JSON.parse(request.body) as { UserName: string; Password: string };
        if (body.UserName !== "admin" || body.Password !== PASSWORD)
          return sendJson(response, 401, redfishError("Base.1.8.NoValidSession"));
        const token = `token-${++issued}`;
        tokens.add(token);
        return sendJson(
          response,
          201,
          { "@odata.id": `/redfish/v1/SessionService/Sessions/${issued}` },
          {
            "X-Auth-Token": token,
            Location: `/redfish/v1/SessionService/Sessions/${issued}`,
          },
        );
      }
      const token = String(request.headers["x-auth-token"] ?? "");
      if (request.method === "DELETE" && request.url.startsWith("/redfish/v1/SessionService/Sessions/")) {
        tokens.delete(token);
        return sendJson(response, 204, undefined);
      }
      if (!tokens.has(token)) return sendJson(response, 401, redfishError("Base.1.8.NoValidSession"));
      return sendJson(response, 200, { "@odata.id": request.url, Id: "x" });
    });
  });
  afterAll(() => bmc.stop());

  it("logs in once for many concurrent requests and reuses the token", async () => {
    bmc.requests.length = 0;
    const client = new RedfishClient({
      address: bmc.url,
      auth: "session",
      credentials: { username: "admin", password: PASSWORD },
    });
    await Promise.all(Array.from({ length: 6 }, (_, i) => client.get(`/redfish/v1/Systems/${i}`)));
    const logins = bmc.requests.filter((r) => r.method === "POST");
    expect(logins).toHaveLength(1);
    const usedTokens = new Set(
      bmc.requests.filter((r) => r.method === "GET").map((r) => r.headers["x-auth-token"]),
    );
    expect(usedTokens.size).toBe(1);
    await client.close();
  });

  it("logs in again once when the session expires, then logs out on close", async () => {
    bmc.requests.length = 0;
    const client = new RedfishClient({
      address: bmc.url,
      auth: "session",
      credentials: { username: "admin", password: PASSWORD },
    });
    await client.get("/redfish/v1/Systems");
    tokens = new Set(); // the BMC forgets every session
    const body = await client.get("/redfish/v1/Managers");
    expect(body["@odata.id"]).toBe("/redfish/v1/Managers");
    expect(bmc.requests.filter((r) => r.method === "POST")).toHaveLength(2);
    await client.close();
    const logout = bmc.requests.filter((r) => r.method === "DELETE");
    expect(logout).toHaveLength(1);
    expect(logout[0]?.url).toBe(`/redfish/v1/SessionService/Sessions/${issued}`);
    expect(tokens.size).toBe(0);
  });

  it("does not loop when the re-login is rejected too", async () => {
    const client = new RedfishClient({
      address: bmc.url,
      auth: "session",
      credentials: { username: "admin", password: "wrong" },
    });
    const error = await client.get("/redfish/v1/Systems").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedfishHttpError);
    expect((error as RedfishHttpError).httpStatus).toBe(401);
    expect((error as RedfishHttpError).message).not.toContain("wrong");
    await client.close();
  });
});

describe("basic authentication and password change", () => {
  let bmc: FakeBmc;
  beforeAll(async () => {
    bmc = await FakeBmc.start((request, response) => {
      if (request.headers.authorization !== `Basic ${Buffer.from(`root:${PASSWORD}`).toString("base64")}`) {
        return sendJson(response, 401, redfishError("Base.1.8.NoValidSession"), {
          "WWW-Authenticate": "Basic",
        });
      }
      if (request.url === "/redfish/v1/Chassis") {
        return sendJson(
          response,
          403,
          redfishError("Base.1.12.PasswordChangeRequired", "change the password"),
        );
      }
      if (request.url === "/redfish/v1/Systems")
        return sendJson(response, 403, redfishError("Base.1.8.InsufficientPrivilege"));
      return sendJson(response, 200, { "@odata.id": request.url });
    });
  });
  afterAll(() => bmc.stop());

  it("sends basic credentials and never asks for a session", async () => {
    const client = new RedfishClient({
      address: bmc.url,
      credentials: { username: "root", password: PASSWORD },
    });
    await client.get("/redfish/v1/Managers");
    expect(bmc.requests.some((r) => r.url.includes("Sessions"))).toBe(false);
    await client.close();
  });

  it("reports a 403 with PasswordChangeRequired as its own error, and other 403s as HTTP errors", async () => {
    const client = new RedfishClient({
      address: bmc.url,
      credentials: { username: "root", password: PASSWORD },
    });
    const changeRequired = await client.get("/redfish/v1/Chassis").catch((e: unknown) => e);
    expect(changeRequired).toBeInstanceOf(PasswordChangeRequiredError);
    expect((changeRequired as PasswordChangeRequiredError).code).toBe("password_change_required");
    const forbidden = await client.get("/redfish/v1/Systems").catch((e: unknown) => e);
    expect(forbidden).toBeInstanceOf(RedfishHttpError);
    expect(forbidden).not.toBeInstanceOf(PasswordChangeRequiredError);
    expect((forbidden as RedfishHttpError).code).toBe("redfish_http_error");
    await client.close();
  });

  it("takes credentials from the address and never prints them", async () => {
    const address = bmc.url.replace("http://", `http://root:${PASSWORD}@`);
    const client = new RedfishClient({ address });
    expect(client.displayAddress).not.toContain(PASSWORD);
    await expect(client.get("/redfish/v1/Managers")).resolves.toBeTruthy();
    await client.close();
  });
});
