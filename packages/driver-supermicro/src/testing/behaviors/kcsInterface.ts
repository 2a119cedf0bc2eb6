import type { MockupBehavior } from "@racksmith/testkit";
import { valueNotInList } from "./responses.js";

const PRIVILEGES = ["Administrator", "Operator", "User", "Callback"];

/** `Oem/Supermicro/KCSInterface` accepts only the IPMI privilege levels. */
export const kcsInterfaceBehavior: MockupBehavior = {
  name: "supermicro-kcs-interface",
  patch: {
    "/redfish/v1/Managers/*/Oem/Supermicro/KCSInterface": ({ body }) =>
      body.Privilege === undefined || PRIVILEGES.includes(String(body.Privilege))
        ? undefined
        : valueNotInList(String(body.Privilege), "Privilege"),
  },
};
