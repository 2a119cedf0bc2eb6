import type { MockupBehavior, MockupService } from "@racksmith/testkit";
import { field, iloError, isObject, linkOf, noContent, strings } from "./json.js";

/** The BIOS's pending boot order (`…/oem/hpe/boot/settings/`): what iLO applies when the host boots. */
async function applyPendingBootOrder(service: MockupService, systemPath: string): Promise<void> {
  const system = await service.read(systemPath);
  const biosPath = linkOf(system?.Bios) ?? `${systemPath}/Bios`;
  const bios = await service.read(biosPath);
  const bootPath = linkOf(field(bios, "Oem", "Hpe", "Links", "Boot")) ?? `${biosPath}/oem/hpe/boot`;
  const boot = await service.read(bootPath);
  const settingsPath = linkOf(field(boot, "@Redfish.Settings", "SettingsObject")) ?? `${bootPath}/settings`;
  const next = strings(field(await service.read(settingsPath), "PersistentBootConfigOrder"));
  const current = strings(boot?.PersistentBootConfigOrder) ?? [];
  if (!boot || !next || next.join("\n") === current.join("\n")) return;
  await service.merge(bootPath, { PersistentBootConfigOrder: next });
  // The standard view follows: `Boot<BootOptionNumber>` in the new order, entries it does not map kept last.
  const numbers = new Map<string, string>();
  for (const source of Array.isArray(boot.BootSources) ? boot.BootSources : []) {
    const name = field(source, "StructuredBootString");
    const number = field(source, "BootOptionNumber");
    if (typeof name === "string" && typeof number === "string") numbers.set(name, `Boot${number}`);
  }
  const references = next.flatMap((entry) => numbers.get(entry) ?? []);
  const previous = strings(field(system, "Boot", "BootOrder")) ?? [];
  await service.merge(systemPath, {
    Boot: { BootOrder: [...references, ...previous.filter((reference) => !references.includes(reference))] },
  });
}

/** The BIOS performs a staged TPM clear while booting and sets `Tpm2Operation` back to `NoAction`. */
async function completeTpmClear(service: MockupService, systemPath: string): Promise<void> {
  const biosPath = linkOf((await service.read(systemPath))?.Bios) ?? `${systemPath}/Bios`;
  if (field(await service.read(biosPath), "Attributes", "Tpm2Operation") === "Clear") {
    await service.merge(biosPath, { Attributes: { Tpm2Operation: "NoAction" } });
  }
}

/**
 * iLO advertises OEM actions under `Oem.Hpe.Actions`; the testkit server looks for actions under `Actions`
 * only, so mirror them there (`Actions.Oem.Hpe`) to let it route them to the action hooks below.
 */
async function advertiseOemActions(service: MockupService, path: string): Promise<void> {
  const resource = await service.read(path);
  const oemActions = field(resource, "Oem", "Hpe", "Actions");
  if (!isObject(oemActions) || isObject(field(resource, "Actions", "Oem", "Hpe"))) return;
  await service.merge(path, { Actions: { Oem: { Hpe: oemActions } } });
}

/** A boot applies the pending boot order and completes a TPM clear; every reset exposes the OEM actions. */
export const hpeBootBehavior: MockupBehavior = {
  name: "hpe-boot",
  onReset: async ({ service, systemPath, booted }) => {
    await advertiseOemActions(service, systemPath);
    if (!booted) return;
    await applyPendingBootOrder(service, systemPath);
    await completeTpmClear(service, systemPath);
  },
};

/** `HpeComputerSystemExt.SystemReset`: AuxCycle leaves the (already off) host off; ColdBoot powers it on. */
export const hpeSystemResetBehavior: MockupBehavior = {
  name: "hpe-system-reset",
  actions: {
    "#HpeComputerSystemExt.SystemReset": async ({ service, body, resourcePath, definition }) => {
      const allowed = strings(definition["ResetType@Redfish.AllowableValues"]) ?? ["ColdBoot", "AuxCycle"];
      const resetType = body.ResetType;
      if (typeof resetType !== "string" || !allowed.includes(resetType)) {
        return iloError(
          400,
          "Base.1.8.ActionParameterValueNotInList",
          `ResetType must be ${allowed.join(" or ")}`,
        );
      }
      await service.merge(resourcePath, { PowerState: resetType === "ColdBoot" ? "On" : "Off" });
      return noContent();
    },
  },
};

const uefiPasswords = new WeakMap<MockupService, Map<string, string>>();

/** `Bios.ChangePassword` at `Bios/settings/Actions/Bios.ChangePasswords/`: the old password must match. */
export const hpeUefiPasswordBehavior: MockupBehavior = {
  name: "hpe-uefi-password",
  actions: {
    "#Bios.ChangePassword": ({ service, body }) => {
      const name = body.PasswordName;
      if (name !== "AdministratorPassword" && name !== "PowerOnPassword") {
        return iloError(400, "Base.1.8.ActionParameterValueNotInList", "PasswordName is not a BIOS password");
      }
      const passwords = uefiPasswords.get(service) ?? new Map<string, string>();
      uefiPasswords.set(service, passwords);
      if ((body.OldPassword ?? "") !== (passwords.get(name) ?? "")) {
        return iloError(400, "iLO.2.15.InvalidPassword", "The current BIOS password is not correct.");
      }
      passwords.set(name, typeof body.NewPassword === "string" ? body.NewPassword : "");
      return noContent();
    },
  },
};

/** Everything the testkit server needs to play out an iLO: add them to a `MockupServer`'s behaviors. */
export const hpeMockupBehaviors: readonly MockupBehavior[] = [
  hpeBootBehavior,
  hpeSystemResetBehavior,
  hpeUefiPasswordBehavior,
];
