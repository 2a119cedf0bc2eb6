import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { basicAuth, messageIds } from "../__fixtures__/http.js";
import { REPO_ROOT, TINY_FULL } from "../__fixtures__/paths.js";
import type { JsonObject } from "../json.js";
import { MockupService, type MockupServiceOptions } from "../mockupService.js";
import { MockupTree } from "../mockupTree.js";
import { jsonResponse } from "../responses.js";
import type { MockupResponse } from "../types.js";

const EXAMPLE = join(REPO_ROOT, "packages/testkit/mockups/example");
const SUBSCRIPTIONS = "/redfish/v1/EventService/Subscriptions";
const VALID: JsonObject = {
  Destination: "https://collector.example/events",
  Protocol: "Redfish",
  Context: "ctx",
};

let tiny: MockupTree;
let example: MockupTree;

beforeAll(async () => {
  tiny = await MockupTree.open(TINY_FULL);
  example = await MockupTree.open(EXAMPLE);
});

const body = (response: MockupResponse): JsonObject => response.body as JsonObject;

/** The MessageArgs of the first extended-info entry of an error. */
function messageArgs(response: MockupResponse): unknown {
  const error = body(response).error as JsonObject;
  return (error["@Message.ExtendedInfo"] as JsonObject[])[0]?.MessageArgs;
}

function subscribe(
  service: MockupService,
  payload: JsonObject,
  path = SUBSCRIPTIONS,
): Promise<MockupResponse> {
  return service.handle({ method: "POST", path, body: payload });
}

function tinyService(options: MockupServiceOptions = {}): MockupService {
  return new MockupService(tiny, options);
}

function expectRefused(response: MockupResponse, message: string, args: readonly string[]): void {
  expect(response.status).toBe(400);
  expect(messageIds(body(response))).toEqual([`Base.1.8.${message}`]);
  expect(messageArgs(response)).toEqual(args);
}

describe("strict subscriptions", () => {
  it("creates a valid Redfish subscription (201), with or without Protocol", async () => {
    const service = tinyService();
    const created = await subscribe(service, VALID);
    expect(created.status).toBe(201);
    expect(created.headers.location).toBe(`${SUBSCRIPTIONS}/2`);
    expect(body(created)).toMatchObject({ Destination: VALID.Destination, Protocol: "Redfish" });
    expect((await subscribe(service, { Destination: "http://10.0.0.5:8080/redfish" })).status).toBe(201);
    expect((await subscribe(service, { ...VALID, EventFormatType: "MetricReport" })).status).toBe(201);
  });

  it("refuses a Protocol other than Redfish with PropertyValueNotInList naming the value and Protocol", async () => {
    const service = tinyService();
    expectRefused(await subscribe(service, { ...VALID, Protocol: "FTP" }), "PropertyValueNotInList", [
      "FTP",
      "Protocol",
    ]);
    // A valid EventDestinationProtocol the mockup cannot deliver.
    expectRefused(await subscribe(service, { ...VALID, Protocol: "SNMPv2c" }), "PropertyValueNotInList", [
      "SNMPv2c",
      "Protocol",
    ]);
    expect((await service.read(SUBSCRIPTIONS))?.["Members@odata.count"]).toBe(1);
  });

  it("wants a Destination, an http(s) URI", async () => {
    const service = tinyService();
    expectRefused(await subscribe(service, { Protocol: "Redfish" }), "PropertyMissing", ["Destination"]);
    expectRefused(await subscribe(service, {}), "PropertyMissing", ["Destination"]);
    expectRefused(
      await subscribe(service, { Destination: "ftp://collector.example/events" }),
      "PropertyValueFormatError",
      ["ftp://collector.example/events", "Destination"],
    );
    expectRefused(await subscribe(service, { Destination: "collector" }), "PropertyValueFormatError", [
      "collector",
      "Destination",
    ]);
    expectRefused(await subscribe(service, { Destination: 42 }), "PropertyValueFormatError", [
      "42",
      "Destination",
    ]);
  });

  it("checks Context and EventFormatType", async () => {
    const service = tinyService();
    expectRefused(await subscribe(service, { ...VALID, Context: 7 }), "PropertyValueFormatError", [
      "7",
      "Context",
    ]);
    expectRefused(
      await subscribe(service, { ...VALID, EventFormatType: "Syslog" }),
      "PropertyValueNotInList",
      ["Syslog", "EventFormatType"],
    );
  });

  it("applies to the collection the EventService links, wherever it lives", async () => {
    const service = new MockupService(example);
    const destinations = "/redfish/v1/EventService/Destinations";
    service.write("/redfish/v1/EventService", {
      "@odata.id": "/redfish/v1/EventService",
      "@odata.type": "#EventService.v1_10_0.EventService",
      Id: "EventService",
      Name: "Event Service",
      Subscriptions: { "@odata.id": destinations },
    });
    await service.createMember(
      destinations,
      { Destination: "https://first.example", Protocol: "Redfish" },
      {
        collectionType: "#EventDestinationCollection.EventDestinationCollection",
      },
    );
    expectRefused(
      await subscribe(service, { ...VALID, Protocol: "FTP" }, destinations),
      "PropertyValueNotInList",
      ["FTP", "Protocol"],
    );
    expect((await subscribe(service, VALID, destinations)).status).toBe(201);
  });

  it("leaves other collections alone", async () => {
    const service = tinyService({ auth: "basic" });
    const created = await service.handle({
      method: "POST",
      path: "/redfish/v1/AccountService/Accounts",
      headers: basicAuth("root", "racksmith"),
      body: { UserName: "ops", Password: "ops-secret", RoleId: "Operator", Protocol: "FTP" },
    });
    expect(created.status).toBe(201);
  });

  it("lets a vendor hook answer first", async () => {
    const service = tinyService();
    service.use({
      name: "vendor-subscriptions",
      post: { [SUBSCRIPTIONS]: () => jsonResponse(201, { Vendor: true }) },
    });
    const answer = await subscribe(service, { Destination: "snmp://trap", Protocol: "SNMPv2c" });
    expect(answer.status).toBe(201);
    expect(body(answer)).toEqual({ Vendor: true });
  });
});

describe("relaxed subscriptions", () => {
  it("accepts anything with strict: false", async () => {
    const service = tinyService({ strict: false });
    expect((await subscribe(service, { ...VALID, Protocol: "FTP" })).status).toBe(201);
    expect((await subscribe(service, {})).status).toBe(201);
  });

  it("accepts anything when the subscriptions rule is lenient", async () => {
    const service = tinyService({ lenient: ["subscriptions"] });
    expect((await subscribe(service, { Destination: "nowhere", Protocol: "SNMPv2c" })).status).toBe(201);
  });
});
