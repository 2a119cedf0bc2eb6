import type { DriverContext } from "@racksmith/core";
import type { BiosValue, RedfishClient } from "@racksmith/core/redfish";
import {
  DriverMockup,
  type JsonObject,
  type MockupAuthMode,
  type MockupResponse,
  type RecordedWrite,
} from "@racksmith/testkit";
import { DellIdracDriver, dellDriver } from "../../src/index.js";
import { type DellMockupOptions, dellMockupBehaviors } from "../../src/testing/index.js";

export const SYSTEM = "/redfish/v1/Systems/System.Embedded.1";
export const MANAGER = "/redfish/v1/Managers/iDRAC.Embedded.1";
export const BIOS = `${SYSTEM}/Bios`;
export const BIOS_SETTINGS = `${SYSTEM}/Bios/Settings`;
export const MANAGER_ATTRIBUTES = `${MANAGER}/Attributes`;
export const DELL_ATTRIBUTES = `${MANAGER}/Oem/Dell/DellAttributes/iDRAC.Embedded.1`;
export const JOBS = `${MANAGER}/Jobs`;
export const OEM_JOBS = `${MANAGER}/Oem/Dell/Jobs`;

/** A write that reached the mockup: method, path (as sent) and JSON body. */
export type RecordedRequest = RecordedWrite;

function createDellDriver(client: RedfishClient, context: DriverContext): DellIdracDriver {
  const driver = dellDriver.create(client, context);
  if (!(driver instanceof DellIdracDriver))
    throw new Error("the dell definition created another driver class");
  return driver;
}

/**
 * The Dell driver on a Dell mockup for a test file: every write is recorded (before the iDRAC behaviors see
 * it), a test can make the BMC answer a request its own way once, and state is arranged through the service.
 */
export class DellMockup extends DriverMockup<DellIdracDriver> {
  constructor(
    mockup: string,
    options: { idrac?: DellMockupOptions; auth?: MockupAuthMode; settings?: Record<string, unknown> } = {},
  ) {
    super({
      driver: createDellDriver,
      mockup,
      auth: options.auth ?? "basic",
      behaviors: dellMockupBehaviors(options.idrac),
      settings: options.settings,
    });
  }

  /** Between tests: also empties the job queue and the staged BIOS values. */
  override async reset(): Promise<void> {
    await super.reset();
    await this.resetQueue();
  }

  /** Reboots the host through the driver (which runs the queued jobs); the reset is not kept as a write. */
  override async reboot(): Promise<void> {
    await super.reboot();
    this.takeWrites((write) => write.path.endsWith("/ComputerSystem.Reset"));
  }

  // ---- state ------------------------------------------------------------------------------------------

  async attributes(path: string): Promise<Record<string, BiosValue>> {
    return ((await this.service.read(path))?.Attributes ?? {}) as Record<string, BiosValue>;
  }

  async setBiosAttributes(attributes: JsonObject): Promise<void> {
    await this.service.merge(BIOS, { Attributes: attributes });
  }

  async setManagerAttributes(attributes: JsonObject): Promise<void> {
    for (const path of [MANAGER_ATTRIBUTES, DELL_ATTRIBUTES])
      await this.service.merge(path, { Attributes: attributes });
  }

  async stageBios(attributes: JsonObject): Promise<void> {
    await this.service.merge(BIOS_SETTINGS, { Attributes: attributes });
  }

  /** Empties the job queue and the staged BIOS values: a clean iDRAC for the next test. */
  async resetQueue(): Promise<void> {
    for (const collection of [JOBS, OEM_JOBS]) {
      const body = await this.service.read(collection);
      for (const member of (body?.Members ?? []) as JsonObject[])
        this.service.remove(String(member["@odata.id"]));
      if (body) this.service.write(collection, { ...body, Members: [], "Members@odata.count": 0 });
    }
    const settings = await this.service.read(BIOS_SETTINGS);
    if (settings) this.service.write(BIOS_SETTINGS, { ...settings, Attributes: {} });
    this.clearWrites();
  }

  /** Adds a job as the iDRAC shows it, in both collections. */
  async addJob(id: string, job: JsonObject): Promise<void> {
    const body = { "@odata.type": "#DellJob.v1_2_0.DellJob", Name: "Configure: BIOS.Setup.1-1", ...job };
    for (const collection of [JOBS, OEM_JOBS]) await this.service.createMember(collection, body, { id });
  }

  async job(id: string): Promise<JsonObject | undefined> {
    return this.service.read(`${JOBS}/${id}`);
  }

  async bootOrder(): Promise<string[]> {
    const boot = (await this.service.read(SYSTEM))?.Boot as JsonObject | undefined;
    return (boot?.BootOrder ?? []) as string[];
  }
}

/** `{ status, body }` of a Redfish error the way an iDRAC words it (for intercepted answers). */
export function idracError(status: number, messageId: string, message: string): MockupResponse {
  return {
    status,
    headers: { "content-type": "application/json" },
    body: {
      error: {
        code: "Base.1.12.GeneralError",
        message,
        "@Message.ExtendedInfo": [{ MessageId: messageId, Message: message }],
      },
    },
  };
}

export function only(requests: readonly RecordedRequest[], method: string, path: string): RecordedRequest[] {
  return requests.filter((r) => r.method === method && r.path.replace(/\/+$/, "") === path);
}
