import type { JsonObject, MockupBehavior, MockupService } from "@racksmith/testkit";
import { canonicalAttributeName } from "../../bios/index.js";
import { isObject } from "./json.js";
import { NO_CONTENT, propertyUnknown } from "./responses.js";

/** Where a Bios stages changes: its advertised settings object, else Supermicro's `Bios/SD`. */
function settingsPathOf(bios: JsonObject, biosPath: string): string {
  const settings = bios["@Redfish.Settings"];
  const link =
    isObject(settings) && isObject(settings.SettingsObject)
      ? settings.SettingsObject["@odata.id"]
      : undefined;
  return typeof link === "string" ? link : `${biosPath}/SD`;
}

async function biosOf(
  service: MockupService,
  systemPath: string,
): Promise<{ path: string; body: JsonObject } | undefined> {
  const system = await service.read(systemPath);
  const link = isObject(system?.Bios) ? system.Bios["@odata.id"] : undefined;
  const path = typeof link === "string" ? link : `${systemPath}/Bios`;
  const body = await service.read(path);
  return body ? { path, body } : undefined;
}

/** A boot applies what `Bios/SD` holds and empties it (Supermicro then omits `Attributes`). */
export async function applyStagedBios(service: MockupService, systemPath: string): Promise<void> {
  const bios = await biosOf(service, systemPath);
  if (!bios) return;
  const settingsPath = settingsPathOf(bios.body, bios.path);
  const staged = await service.read(settingsPath);
  if (!staged || !isObject(staged.Attributes)) return;
  const current = isObject(bios.body.Attributes) ? bios.body.Attributes : {};
  service.write(bios.path, { ...bios.body, Attributes: { ...current, ...staged.Attributes } });
  const { Attributes: _applied, ...empty } = staged;
  service.write(settingsPath, empty);
}

/** The BIOS performs a pending TPM clear during the boot and sets `PendingOperation` back to `None`. */
export async function performPendingOperations(service: MockupService, systemPath: string): Promise<void> {
  const bios = await biosOf(service, systemPath);
  const attributes = bios && isObject(bios.body.Attributes) ? bios.body.Attributes : undefined;
  if (!bios || !attributes) return;
  const done = Object.keys(attributes).filter(
    (key) => canonicalAttributeName(key) === "pendingoperation" && attributes[key] === "TPM Clear",
  );
  if (done.length === 0) return;
  service.write(bios.path, {
    ...bios.body,
    Attributes: { ...attributes, ...Object.fromEntries(done.map((key) => [key, "None"])) },
  });
}

/**
 * Supermicro takes BIOS changes as a PATCH of `Systems/{s}/Bios` and stages them in `Bios/SD`; an attribute
 * the BIOS does not have is refused with PropertyUnknown. The built-in reset applies `Bios/SD`; this behavior
 * then performs pending operations (TPM clear).
 */
export const biosSettingsBehavior: MockupBehavior = {
  name: "supermicro-bios-sd",
  patch: {
    "/redfish/v1/Systems/*/Bios": async ({ service, body, current }) => {
      if (!current || !isObject(body.Attributes)) return undefined;
      const known = isObject(current.Attributes) ? current.Attributes : {};
      const unknown = Object.keys(body.Attributes).find((key) => !(key in known));
      if (unknown !== undefined) return propertyUnknown(unknown);
      const biosPath = String(current["@odata.id"]);
      const settingsPath = settingsPathOf(current, biosPath);
      const staged = (await service.read(settingsPath)) ?? {
        "@odata.id": settingsPath,
        "@odata.type": current["@odata.type"] ?? "#Bios.v1_1_1.Bios",
        Id: "SD",
        Name: "BIOS Configuration Pending Settings",
      };
      const pending = isObject(staged.Attributes) ? staged.Attributes : {};
      service.write(settingsPath, { ...staged, Attributes: { ...pending, ...body.Attributes } });
      return NO_CONTENT;
    },
  },
  onReset: async ({ service, systemPath, booted }) => {
    if (booted) await performPendingOperations(service, systemPath);
  },
};
