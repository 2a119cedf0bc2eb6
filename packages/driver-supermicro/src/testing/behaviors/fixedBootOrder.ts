import type { JsonObject, MockupBehavior } from "@racksmith/testkit";
import { entryCategory } from "../../boot/index.js";
import { sameMembers, stringList } from "./json.js";
import { NO_CONTENT, valueNotInList } from "./responses.js";

// Categories whose entry the BMC shows as `Category:<first device of its list>`.
const DEVICE_LISTS: Readonly<Record<string, string>> = { "UEFI Network": "UEFINetwork", "UEFI AP": "UEFIAP" };

/** The category order as the BMC shows it: each listed category names its first device. */
function rendered(order: readonly string[], resource: JsonObject): string[] {
  return order.map((entry) => {
    const category = entryCategory(entry);
    const listName = DEVICE_LISTS[category];
    const first = listName ? stringList(resource[listName])?.[0] : undefined;
    return first ? `${category}:${first}` : entry;
  });
}

/**
 * `Oem/Supermicro/FixedBootOrder`: the category order keeps its length, names known categories (or the
 * disabled item) at most once each; a device list may only be reordered. The stored entries name each
 * category's first device, as the BMC shows them.
 */
export const fixedBootOrderBehavior: MockupBehavior = {
  name: "supermicro-fixed-boot-order",
  patch: {
    "/redfish/v1/Systems/*/Oem/Supermicro/FixedBootOrder": ({ service, body, current }) => {
      if (!current) return undefined;
      const currentOrder = stringList(current.FixedBootOrder) ?? [];
      const disabled = new Set(stringList(current.FixedBootOrderDisabledItem) ?? ["Disabled"]);
      const categories = new Set(currentOrder.map(entryCategory));
      const order = body.FixedBootOrder === undefined ? currentOrder : stringList(body.FixedBootOrder);
      if (!order || order.length !== currentOrder.length) {
        return valueNotInList(JSON.stringify(body.FixedBootOrder), "FixedBootOrder");
      }
      const used = order.map(entryCategory).filter((category) => !disabled.has(category));
      const wrong = used.find(
        (category, index) => !categories.has(category) || used.indexOf(category) !== index,
      );
      if (wrong !== undefined) return valueNotInList(wrong, "FixedBootOrder");
      const next: JsonObject = { ...current };
      for (const listName of Object.values(DEVICE_LISTS)) {
        if (body[listName] === undefined) continue;
        const list = stringList(body[listName]);
        if (!list || !sameMembers(list, stringList(current[listName]) ?? [])) {
          return valueNotInList(JSON.stringify(body[listName]), listName);
        }
        next[listName] = list;
      }
      next.FixedBootOrder = rendered(order, next);
      service.write(String(current["@odata.id"]), next);
      return NO_CONTENT;
    },
  },
};
