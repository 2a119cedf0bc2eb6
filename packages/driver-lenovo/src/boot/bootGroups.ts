import type { BootOptionInfo, BootOrderInfo, BootTarget } from "@racksmith/core";
import { type NetworkBootOrder, networkEntryOption } from "./networkBootOrder.js";

/**
 * XCC's standard `BootOptions` are boot groups (`Network`, `HardDisk`, …), not devices: the persistent order
 * is an order of groups, and the devices inside the network group are ordered by the OEM NetworkBootOrder.
 */
export type BootGroup = "network" | "hardDisk";

const GROUP_NAMES: Readonly<Record<BootGroup, RegExp>> = {
  network: /^network$/i,
  hardDisk: /^hard ?disk$/i,
};

/** PXE and UEFI HTTP both boot from the network group. */
export function groupOfTarget(target: BootTarget): BootGroup {
  return target === "hdd" ? "hardDisk" : "network";
}

export function findGroupOption(
  options: readonly BootOptionInfo[],
  group: BootGroup,
): BootOptionInfo | undefined {
  return options.find((option) => GROUP_NAMES[group].test(option.displayName.trim()));
}

/**
 * The whole boot sequence of the next boot, groups and the network group's entries in place: what the host
 * will really try, in order. Without a NetworkBootOrder the group order is all there is.
 */
export function bootSequence(
  groupOrder: readonly string[],
  groupOptions: readonly BootOptionInfo[],
  network: NetworkBootOrder | undefined,
): BootOrderInfo {
  if (!network) return { order: [...groupOrder], options: [...groupOptions] };
  const networkGroup = findGroupOption(groupOptions, "network")?.reference;
  const order = groupOrder.flatMap((reference) =>
    reference === networkGroup ? [reference, ...network.next] : [reference],
  );
  const entries = network.supported.map((entry) => networkEntryOption(entry, network));
  return { order, options: [...groupOptions, ...entries] };
}
