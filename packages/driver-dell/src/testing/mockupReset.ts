import type { JsonObject, MockupService } from "@racksmith/testkit";
import { runQueuedJobs } from "./mockupJobs.js";
import {
  isObject,
  linkOf,
  managerAttributePaths,
  managerAttributes,
  managerOfSystem,
  readMembers,
} from "./mockupState.js";

/** Attributes the BIOS acts on once at boot, and what they read afterwards. */
const ONE_SHOT: Readonly<Record<string, [string, string]>> = {
  Tpm2Hierarchy: ["Clear", "Enabled"],
  PowerCycleRequest: ["FullPowerCycle", "None"],
};

async function consumeOneShots(service: MockupService, biosPath: string): Promise<JsonObject> {
  const bios = await service.read(biosPath);
  const attributes = isObject(bios?.Attributes) ? bios.Attributes : {};
  const consumed: JsonObject = {};
  for (const [key, [staged, after]] of Object.entries(ONE_SHOT)) {
    if (attributes[key] === staged) consumed[key] = after;
  }
  if (bios && Object.keys(consumed).length > 0) await service.merge(biosPath, { Attributes: consumed });
  return { ...attributes, ...consumed };
}

/** The DellNIC description of the NIC with this FQDD (what HTTP/PXE device boot options are named after). */
async function nicDescription(
  service: MockupService,
  systemPath: string,
  fqdd: string,
): Promise<string | undefined> {
  const system = await service.read(systemPath);
  const chassisLinks =
    isObject(system?.Links) && Array.isArray(system.Links.Chassis) ? system.Links.Chassis : [];
  for (const chassisPath of chassisLinks.map(linkOf)) {
    const adapters = linkOf(chassisPath ? (await service.read(chassisPath))?.NetworkAdapters : undefined);
    for (const adapter of adapters ? await readMembers(service, adapters) : []) {
      const functions = linkOf(adapter.NetworkDeviceFunctions);
      for (const fn of functions ? await readMembers(service, functions) : []) {
        const dell = isObject(fn.Oem) && isObject(fn.Oem.Dell) ? fn.Oem.Dell.DellNIC : undefined;
        if (
          isObject(dell) &&
          (dell.Id === fqdd || fn.Id === fqdd) &&
          typeof dell.DeviceDescription === "string"
        ) {
          return dell.DeviceDescription;
        }
      }
    }
  }
  return undefined;
}

function withFirst(order: readonly string[], reference: string): string[] {
  return [reference, ...order.filter((entry) => entry !== reference)];
}

/**
 * HTTP Device 1 follows `HttpDev1Interface` (its boot option is renamed after that NIC), and a
 * `SetBootOrderEn` that starts with that NIC (or the device itself) makes the BIOS boot it first.
 */
async function applyHttpDevice(service: MockupService, systemPath: string, bios: JsonObject): Promise<void> {
  const slot = typeof bios.HttpDev1Interface === "string" ? bios.HttpDev1Interface : undefined;
  if (bios.HttpDev1EnDis !== "Enabled" || !slot) return;
  const system = await service.read(systemPath);
  const boot = isObject(system?.Boot) ? system.Boot : undefined;
  const optionsPath = linkOf(boot?.BootOptions);
  const option = (optionsPath ? await readMembers(service, optionsPath) : []).find((candidate) =>
    String(candidate.DisplayName).startsWith("HTTP Device 1:"),
  );
  const optionPath = linkOf(option);
  if (!option || !optionPath) return;
  const description = await nicDescription(service, systemPath, slot);
  if (description) await service.merge(optionPath, { DisplayName: `HTTP Device 1: ${description}` });
  const first = String(bios.SetBootOrderEn ?? "")
    .split(",")[0]
    ?.trim();
  const order = Array.isArray(boot?.BootOrder) ? boot.BootOrder.map(String) : [];
  if ((first === slot || first === "NIC.HttpDevice.1-1") && order[0] !== option.BootOptionReference) {
    await service.merge(systemPath, {
      Boot: { BootOrder: withFirst(order, String(option.BootOptionReference)) },
    });
  }
}

/** A boot order staged through the system (or its Settings object) becomes the system's at boot. */
async function applyStagedBootOrder(service: MockupService, systemPath: string): Promise<void> {
  const pending = await service.read(`${systemPath}/Settings`);
  const order = isObject(pending?.Boot) ? pending.Boot.BootOrder : undefined;
  if (!pending || !Array.isArray(order)) return;
  await service.merge(systemPath, { Boot: { BootOrder: order } });
  const { Boot: _applied, ...rest } = pending;
  service.write(`${systemPath}/Settings`, rest);
}

/** After a one-time boot the iDRAC sets the first boot device back to Normal. */
async function endBootOnce(service: MockupService, managerPath: string): Promise<void> {
  const attributes = await managerAttributes(service, managerPath);
  if (
    attributes["ServerBoot.1.BootOnce"] !== "Enabled" ||
    attributes["ServerBoot.1.FirstBootDevice"] === "Normal"
  ) {
    return;
  }
  for (const path of managerAttributePaths(managerPath)) {
    await service.merge(path, { Attributes: { "ServerBoot.1.FirstBootDevice": "Normal" } });
  }
}

/** What a host boot does on an iDRAC beyond applying staged BIOS values (which the mockup server does). */
export async function bootEffects(
  service: MockupService,
  systemPath: string,
  runJobs: boolean,
): Promise<void> {
  const managerPath = await managerOfSystem(service, systemPath);
  const bios = await consumeOneShots(service, `${systemPath}/Bios`);
  await applyStagedBootOrder(service, systemPath);
  await applyHttpDevice(service, systemPath, bios);
  await endBootOnce(service, managerPath);
  if (runJobs) await runQueuedJobs(service, managerPath);
}
