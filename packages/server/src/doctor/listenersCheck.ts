import type { ErrorCode } from "@racksmith/core";
import type { LoadedConfig } from "../config/index.js";
import { formatListenAddress, type ListenAddress, parseListenAddress, tryListen } from "../service/index.js";
import { displayPath } from "./paths.js";
import { racksmithServiceAt } from "./racksmithProbe.js";
import { type DoctorCheck, finding } from "./types.js";

// The code `racksmith serve` fails with on a taken address (ListenAddressInUseError), and its fix below.
const IN_USE: ErrorCode = "listen_address_in_use";

interface Listener {
  name: "REST" | "gRPC";
  /** The config key that sets it. */
  setting: "server.http" | "server.grpc";
  /** The key and the flag, as `racksmith serve` names them in its error. */
  key: string;
  value: string;
}

export interface ListenersCheckResult {
  checks: DoctorCheck[];
  /** The REST address where a Racksmith service already answers, if one does. */
  runningServiceAt: string | undefined;
}

/**
 * Binds each configured address for a moment as `racksmith serve` does before it opens the database
 * (port 0 is any free port, so never taken). A taken REST address where a Racksmith service answers is a
 * warning (it is running already); anything else in the way is a failure.
 */
export async function checkListeners(loaded: LoadedConfig, cwd: string): Promise<ListenersCheckResult> {
  const file = loaded.file ? displayPath(loaded.file, cwd) : "racksmith.yaml";
  const listeners: Listener[] = [
    { name: "REST", setting: "server.http", key: "server.http / --http", value: loaded.config.server.http },
    { name: "gRPC", setting: "server.grpc", key: "server.grpc / --grpc", value: loaded.config.server.grpc },
  ];
  const problems: DoctorCheck[] = [];
  const free: string[] = [];
  const taken: Array<{ listener: Listener; address: ListenAddress }> = [];
  for (const listener of listeners) {
    let address: ListenAddress;
    try {
      address = parseListenAddress(listener.value, listener.setting);
    } catch (error) {
      problems.push(
        finding("listeners", "fail", (error as Error).message, `edit ${file}: fix ${listener.setting}`),
      );
      continue;
    }
    const shown = `${listener.name} ${formatListenAddress(address)}`;
    if (address.port === 0) {
      free.push(`${shown} (any free port)`);
      continue;
    }
    const outcome = await tryListen(address);
    if (outcome === "free") free.push(shown);
    else if (outcome.code === "EADDRINUSE") taken.push({ listener, address });
    else problems.push(bindFailure(listener, address, outcome.code ?? outcome.message));
  }
  const rest = taken.find((entry) => entry.listener.name === "REST");
  const service = rest ? await racksmithServiceAt(rest.address) : undefined;
  const runningServiceAt = service && rest ? formatListenAddress(rest.address) : undefined;
  for (const { listener, address } of taken) {
    problems.push(
      service
        ? finding(
            "listeners",
            "warn",
            `${listener.name} listener ${formatListenAddress(address)} is in use: ${service} is already running there`,
            `stop it before \`racksmith serve\`, or choose another address (${listener.key})`,
          )
        : finding(
            "listeners",
            "fail",
            `${listener.name} listener ${formatListenAddress(address)} is in use [${IN_USE}]`,
            `stop what listens there, or choose another address (${listener.key})`,
          ),
    );
  }
  return {
    checks: problems.length ? problems : [finding("listeners", "ok", `${free.join(", ")}: free`)],
    runningServiceAt,
  };
}

function bindFailure(listener: Listener, address: ListenAddress, code: string): DoctorCheck {
  const shown = `${listener.name} listener ${formatListenAddress(address)}`;
  const fix =
    code === "EACCES"
      ? `use a port above 1023, or allow binding low ports (CAP_NET_BIND_SERVICE) (${listener.key})`
      : code === "EADDRNOTAVAIL" || code === "ENOTFOUND"
        ? `use an address of this machine, or 0.0.0.0 (${listener.key})`
        : `choose another address (${listener.key})`;
  return finding("listeners", "fail", `${shown} cannot listen: ${code}`, fix);
}
