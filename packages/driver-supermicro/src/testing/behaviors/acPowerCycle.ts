import type { MockupBehavior } from "@racksmith/testkit";
import { applyStagedBios, performPendingOperations } from "./biosSettings.js";
import { NO_CONTENT, redfishRefusal } from "./responses.js";

/** `OemSystemExtensions.Reset` with `ACCycle`: auxiliary power off and on, so the host boots. */
export const acPowerCycleBehavior: MockupBehavior = {
  name: "supermicro-ac-cycle",
  actions: {
    "#OemSystemExtensions.Reset": async ({ service, body, resourcePath }) => {
      if (body.ResetType !== "ACCycle") {
        return redfishRefusal(
          400,
          "Base.1.10.3.ActionParameterValueNotInList",
          `The value ${String(body.ResetType)} for the parameter ResetType is not in the list of acceptable values.`,
          [String(body.ResetType), "ResetType"],
        );
      }
      await service.merge(resourcePath, { PowerState: "On" });
      await applyStagedBios(service, resourcePath);
      await performPendingOperations(service, resourcePath);
      return NO_CONTENT;
    },
  },
};
