import type { MockupBehavior } from "@racksmith/testkit";
import { isObject, sameMembers, stringList } from "./json.js";
import { propertyUnknown, valueNotInList } from "./responses.js";

/**
 * `Boot.BootOrder` on the system: firmware without it refuses the property (PropertyUnknown); otherwise the new
 * order must hold exactly the current references.
 */
export const bootOrderBehavior: MockupBehavior = {
  name: "supermicro-boot-order",
  patch: {
    "/redfish/v1/Systems/*": ({ body, current }) => {
      if (!isObject(body.Boot) || body.Boot.BootOrder === undefined) return undefined;
      const currentOrder = isObject(current?.Boot) ? stringList(current.Boot.BootOrder) : undefined;
      if (!currentOrder) return propertyUnknown("BootOrder");
      const order = stringList(body.Boot.BootOrder);
      return order && sameMembers(order, currentOrder)
        ? undefined
        : valueNotInList(JSON.stringify(body.Boot.BootOrder), "BootOrder");
    },
  },
};
