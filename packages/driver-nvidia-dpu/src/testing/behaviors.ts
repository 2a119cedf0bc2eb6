import type {
  JsonObject,
  JsonValue,
  MockupBehavior,
  MockupResponse,
  MockupService,
} from "@racksmith/testkit";
import { allowedParameterValues, type InlineParameterAction } from "../bluefield/index.js";

// Responses are built here rather than imported, so this entry point needs @racksmith/testkit for types only.
const NO_CONTENT: MockupResponse = { status: 204, headers: { "odata-version": "4.0" } };

function badRequest(messageId: string, message: string, args: string[]): MockupResponse {
  return {
    status: 400,
    headers: { "odata-version": "4.0", "content-type": "application/json; charset=utf-8" },
    body: {
      error: {
        code: "Base.1.8.GeneralError",
        message: "A general error has occurred. See ExtendedInfo for more information.",
        "@Message.ExtendedInfo": [
          { MessageId: `Base.1.8.${messageId}`, Message: message, MessageArgs: args, Severity: "Warning" },
        ],
      },
    },
  };
}

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function refuseValue(value: JsonValue | undefined, parameter: string, action: string): MockupResponse {
  return badRequest(
    "ActionParameterValueNotInList",
    `The value '${String(value)}' for the parameter ${parameter} in the action ${action} is not in the list of acceptable values.`,
    [String(value), parameter, action],
  );
}

/** Modes requested with Mode.Set, per virtual BMC, until the DPU reboots. */
const pendingModes = new WeakMap<MockupService, string>();

/** BF3 `Mode.Set`: the new mode shows in `Oem.Nvidia.Mode` (and the NicMode BIOS attribute) after a reboot. */
export const modeSetBehavior: MockupBehavior = {
  name: "bluefield-mode-set",
  actions: {
    "#Mode.Set": ({ service, body, definition, action }) => {
      const allowed = allowedParameterValues(definition as InlineParameterAction, "Mode");
      if (typeof body.Mode !== "string" || (allowed && !allowed.includes(body.Mode))) {
        return refuseValue(body.Mode, "Mode", action);
      }
      pendingModes.set(service, body.Mode);
      return NO_CONTENT;
    },
  },
  onReset: async ({ service, systemPath, booted }) => {
    const mode = pendingModes.get(service);
    if (!booted || mode === undefined) return;
    pendingModes.delete(service);
    await service.merge(`${systemPath}/Oem/Nvidia`, { Mode: mode });
    const bios = await service.read(`${systemPath}/Bios`);
    if (isObject(bios?.Attributes) && "NicMode" in bios.Attributes) {
      await service.merge(`${systemPath}/Bios`, { Attributes: { NicMode: mode } });
    }
  },
};

/** BF3 `HostRshim.Set`: takes effect at once. */
export const hostRshimBehavior: MockupBehavior = {
  name: "bluefield-host-rshim",
  actions: {
    "#HostRshim.Set": async ({ service, body, definition, action, resourcePath }) => {
      const allowed = allowedParameterValues(definition as InlineParameterAction, "HostRshim");
      if (typeof body.HostRshim !== "string" || (allowed && !allowed.includes(body.HostRshim))) {
        return refuseValue(body.HostRshim, "HostRshim", action);
      }
      await service.merge(resourcePath, { HostRshim: body.HostRshim });
      return NO_CONTENT;
    },
  },
};

/** Like the BlueField BMC, refuse BIOS settings whose key the Bios does not list (a misspelled key is a 400). */
export const biosKeysBehavior: MockupBehavior = {
  name: "bluefield-bios-keys",
  patch: {
    "/redfish/v1/Systems/*/Bios/Settings": async ({ service, body, request }) => {
      const bios = await service.read(request.pathname.replace(/\/Settings\/?$/i, ""));
      const known = isObject(bios?.Attributes) ? bios.Attributes : {};
      const unknown = Object.keys(isObject(body.Attributes) ? body.Attributes : {}).filter(
        (key) => !(key in known),
      );
      const [first] = unknown;
      return first === undefined
        ? undefined
        : badRequest(
            "PropertyUnknown",
            `The property ${first} is not in the list of valid properties for the resource.`,
            [first],
          );
    },
  },
};

/**
 * What the DPU's UEFI does at boot: it consumes the system's pending settings (a one-time override is used by
 * this boot, a staged boot order becomes the boot order) and reports the secure boot state it booted with.
 */
export const bootSettingsBehavior: MockupBehavior = {
  name: "bluefield-boot-settings",
  onReset: async ({ service, systemPath, booted }) => {
    if (!booted) return;
    const system = await service.read(systemPath);
    const settingsObject = isObject(system?.["@Redfish.Settings"])
      ? system["@Redfish.Settings"].SettingsObject
      : undefined;
    const settingsPath =
      isObject(settingsObject) && typeof settingsObject["@odata.id"] === "string"
        ? settingsObject["@odata.id"]
        : `${systemPath}/Settings`;
    const staged = (await service.read(settingsPath))?.Boot;
    if (isObject(staged)) {
      const order = Array.isArray(staged.BootOrder) ? staged.BootOrder : [];
      const continuous = staged.BootSourceOverrideEnabled === "Continuous";
      const applied: JsonObject = {
        ...(order.length > 0 ? { BootOrder: order } : {}),
        ...(continuous
          ? {
              BootSourceOverrideEnabled: "Continuous",
              BootSourceOverrideTarget: staged.BootSourceOverrideTarget ?? "None",
            }
          : {}),
      };
      if (Object.keys(applied).length > 0) await service.merge(systemPath, { Boot: applied });
      await service.merge(settingsPath, {
        Boot: { BootOrder: [], BootSourceOverrideEnabled: "Disabled", BootNext: "" },
      });
    }
    const secureBoot = await service.read(`${systemPath}/SecureBoot`);
    if (secureBoot) {
      await service.merge(`${systemPath}/SecureBoot`, {
        SecureBootCurrentBoot: secureBoot.SecureBootEnable === true ? "Enabled" : "Disabled",
      });
    }
  },
};

/** Every BlueField side effect the conformance suite and the tests rely on. */
export const BLUEFIELD_BEHAVIORS: readonly MockupBehavior[] = [
  modeSetBehavior,
  hostRshimBehavior,
  biosKeysBehavior,
  bootSettingsBehavior,
];
