import { InvalidArgumentError } from "@racksmith/core";
import { type IbGuid, normalizeIbGuid } from "@racksmith/core/infiniband";
import { excerpt, quoted } from "../../../../api/index.js";
import type { InstanceInfiniBandInterface, MachineInventory } from "../../../../lifecycle/index.js";

/** HCA model names run to ~60 characters ("MT43244 BlueField-3 integrated ConnectX-7 …"): quote them whole. */
const DEVICE_EXCERPT_LENGTH = 100;

export type HostIbPort = MachineInventory["ibPorts"][number];

/** The host's IB port GUIDs from its agent's inventory, normalised; unreadable GUIDs are skipped. */
export function hostGuids(ports: readonly HostIbPort[]): IbGuid[] {
  const guids: IbGuid[] = [];
  for (const port of ports) {
    try {
      guids.push(normalizeIbGuid(port.guid));
    } catch {
      // A GUID the agent garbled cannot be bound anyway; the interface check names it.
    }
  }
  return guids;
}

/**
 * The GUID an instance interface stands for: the `deviceInstance`-th port (0-based, in the agent's order) of
 * the host's ports whose `device` is the interface's HCA model. Virtual functions are not supported: their
 * GUIDs are assigned by the host's driver at runtime and the agent does not report them, so only the
 * physical function (virtualFunction null) can be put into a partition. Throws naming `field`.
 */
export function interfaceGuid(
  ports: readonly HostIbPort[],
  iface: InstanceInfiniBandInterface,
  field: string,
): IbGuid {
  if (iface.virtualFunction !== null) {
    throw new InvalidArgumentError(
      `${field}.virtualFunction: InfiniBand virtual functions are not supported (their GUIDs are not reported by the host); use the physical function (null)`,
      { details: { field: `${field}.virtualFunction` } },
    );
  }
  const ofModel = ports.filter((port) => port.device === iface.device);
  const port = ofModel[iface.deviceInstance];
  if (!port) {
    const models = [...new Set(ports.map((p) => p.device))];
    const detail =
      ofModel.length > 0
        ? `the host has ${ofModel.length} port(s) of ${quoted(iface.device, DEVICE_EXCERPT_LENGTH)}`
        : `the host has no port of ${quoted(iface.device, DEVICE_EXCERPT_LENGTH)} (its IB devices: ${models.length ? models.map((m) => JSON.stringify(m)).join(", ") : "none"})`;
    throw new InvalidArgumentError(
      `${field}: no InfiniBand port ${excerpt(iface.device, DEVICE_EXCERPT_LENGTH)}#${iface.deviceInstance}: ${detail}`,
      { details: { field } },
    );
  }
  try {
    return normalizeIbGuid(port.guid);
  } catch {
    throw new InvalidArgumentError(
      `${field}: the host reports an invalid GUID ${JSON.stringify(port.guid)}`,
      {
        details: { field },
      },
    );
  }
}
