import type {
  JsonObject,
  JsonValue,
  MockupBehavior,
  MockupHookContext,
  MockupResponse,
  MockupService,
} from "@racksmith/testkit";
import { lenovoOem, linkOf, settingsObjectOf } from "../driver/redfishObjects.js";

// Responses are built here, not imported, so this module needs @racksmith/testkit (an optional peer) for types only.

/** An XCC error answer: the MessageId and text in `@Message.ExtendedInfo`, extra headers (Retry-After…). */
export function xccError(
  status: number,
  messageId: string,
  message: string,
  headers: Readonly<Record<string, string>> = {},
): MockupResponse {
  return {
    status,
    headers: { ...headers, "odata-version": "4.0", "content-type": "application/json; charset=utf-8" },
    body: {
      error: {
        code: "Base.1.8.GeneralError",
        message,
        "@Message.ExtendedInfo": [{ MessageId: messageId, Message: message, Severity: "Critical" }],
      },
    },
  };
}

const NO_CONTENT: MockupResponse = { status: 204, headers: { "odata-version": "4.0" } };

function objectOf(value: JsonValue | undefined): JsonObject | undefined {
  return value && typeof value === "object" && !Array.isArray(value) ? value : undefined;
}

/** Resources XCC protects with ETags: an unconditional PATCH is refused. */
const ETAG_PROTECTED = [
  "/redfish/v1/AccountService/Accounts/*",
  "/redfish/v1/Systems/*/Bios/Pending",
  "/redfish/v1/Systems/*/Pending",
];

function requireIfMatch({ request }: MockupHookContext): MockupResponse | undefined {
  if (request.headers["if-match"]) return undefined;
  return xccError(
    428,
    "Base.1.8.PreconditionRequired",
    `PATCH ${request.pathname} requires an If-Match header with the resource's ETag.`,
  );
}

/** XCC answers 428 (precondition required) to a PATCH of an account or a `Pending` object without If-Match. */
export const xccIfMatchRequired: MockupBehavior = {
  name: "lenovo-if-match-required",
  patch: Object.fromEntries(ETAG_PROTECTED.map((path) => [path, requireIfMatch])),
};

/** Merges `Bios/Pending` into the Bios (the standard reset already did; an AC power cycle needs it). */
async function applyPendingBios(service: MockupService, biosPath: string): Promise<void> {
  const bios = await service.read(biosPath);
  const pendingPath = bios && settingsObjectOf(bios);
  const pending = pendingPath ? await service.read(pendingPath) : undefined;
  const staged = objectOf(pending?.Attributes);
  if (!pendingPath || !pending || !staged || Object.keys(staged).length === 0) return;
  await service.merge(biosPath, { Attributes: staged });
  service.write(pendingPath, { ...pending, Attributes: {} });
}

/** The TPM clear runs during POST; the operation then reads back as None. */
async function runTpmClear(service: MockupService, biosPath: string): Promise<void> {
  const attributes = objectOf((await service.read(biosPath))?.Attributes);
  if (attributes?.TrustedComputingGroup_DeviceOperation === "Clear") {
    await service.merge(biosPath, { Attributes: { TrustedComputingGroup_DeviceOperation: "None" } });
  }
}

/** The staged group order (`Systems/{s}/Pending`) becomes the system's. */
async function applyPendingBootOrder(
  service: MockupService,
  systemPath: string,
  system: JsonObject,
): Promise<void> {
  const pendingPath = settingsObjectOf(system);
  const order = objectOf((pendingPath ? await service.read(pendingPath) : undefined)?.Boot)?.BootOrder;
  if (Array.isArray(order)) await service.merge(systemPath, { Boot: { BootOrder: order } });
}

/** Every OEM boot-order resource's `BootOrderNext` becomes its `BootOrderCurrent`. */
async function applyNextOemBootOrders(service: MockupService, system: JsonObject): Promise<void> {
  const settings = linkOf(lenovoOem(system)?.BootSettings);
  const members = settings ? (await service.read(settings))?.Members : undefined;
  for (const member of Array.isArray(members) ? members : []) {
    const path = linkOf(member);
    const next = path ? (await service.read(path))?.BootOrderNext : undefined;
    if (path && Array.isArray(next)) await service.merge(path, { BootOrderCurrent: next });
  }
}

/** What a boot does on an XCC: staged BIOS, boot order and network order take effect; a TPM clear runs. */
export async function applyXccBoot(service: MockupService, systemPath: string): Promise<void> {
  const system = await service.read(systemPath);
  if (!system) return;
  const biosPath = linkOf(system.Bios) ?? `${systemPath}/Bios`;
  await applyPendingBios(service, biosPath);
  await runTpmClear(service, biosPath);
  await applyPendingBootOrder(service, systemPath, system);
  await applyNextOemBootOrders(service, system);
}

/** At every boot after a `ComputerSystem.Reset`, XCC applies what was staged for it. */
export const xccBootApplies: MockupBehavior = {
  name: "lenovo-boot-applies-pending",
  onReset: async ({ service, systemPath, booted }) => {
    if (booted) await applyXccBoot(service, systemPath);
  },
};

/** `#LenovoComputerSystem.SystemReset` with ACPowerCycle: auxiliary power drops, the host comes back On. */
export const xccAcPowerCycle: MockupBehavior = {
  name: "lenovo-ac-power-cycle",
  actions: {
    "#LenovoComputerSystem.SystemReset": async ({ service, body, resourcePath }) => {
      if (body.ResetType !== "ACPowerCycle") {
        return xccError(
          400,
          "Base.1.8.ActionParameterValueNotInList",
          `The value ${JSON.stringify(body.ResetType)} for ResetType is not in the list of acceptable values.`,
        );
      }
      await service.merge(resourcePath, { PowerState: "On" });
      await applyXccBoot(service, resourcePath);
      return NO_CONTENT;
    },
  },
};

/** Every XCC side effect our mockups need, in the order they must run. */
export const XCC_BEHAVIORS: readonly MockupBehavior[] = [xccIfMatchRequired, xccBootApplies, xccAcPowerCycle];
