import { RacksmithError } from "@racksmith/core";
import type { HealthProbeAlert } from "@racksmith/core/health";
import { excerpt } from "../../api/index.js";

export class InstanceNotFoundError extends RacksmithError {
  constructor(readonly instanceId: string) {
    super("instance_not_found", "NOT_FOUND", `no instance ${excerpt(instanceId)}`, {
      details: { instanceId },
    });
  }
}

/** The host is not in `ready` (allocation needs a host the lifecycle has finished preparing). */
export class HostNotReadyError extends RacksmithError {
  constructor(
    readonly hostId: string,
    readonly stateLabel: string | null,
  ) {
    super(
      "host_not_ready",
      "FAILED_PRECONDITION",
      stateLabel === null
        ? `host ${hostId} is not ready: it has no lifecycle state yet`
        : `host ${hostId} is not ready: it is in ${stateLabel}`,
      { details: { hostId, state: stateLabel } },
    );
  }
}

/** Health alerts with PreventAllocations on the host. */
export class AllocationBlockedError extends RacksmithError {
  constructor(
    readonly hostId: string,
    readonly alerts: readonly HealthProbeAlert[],
  ) {
    const named = alerts.map(
      (alert) =>
        `${alert.id}${alert.target ? ` (${alert.target})` : ""}${alert.message.trim() ? `: ${alert.message}` : ""}`,
    );
    super(
      "allocation_blocked",
      "FAILED_PRECONDITION",
      `host ${hostId} cannot be allocated: ${named.join("; ")}`,
      {
        details: {
          hostId,
          alerts: alerts.map((alert) => ({
            id: alert.id,
            ...(alert.target ? { target: alert.target } : {}),
            message: alert.message,
          })),
        },
      },
    );
  }
}

export class HostAlreadyAllocatedError extends RacksmithError {
  constructor(readonly hostId: string) {
    super("host_already_allocated", "FAILED_PRECONDITION", `host ${hostId} is already allocated`, {
      details: { hostId },
    });
  }
}

export class NoHostAvailableError extends RacksmithError {
  constructor(readonly instanceType: string) {
    super(
      "no_host_available",
      "FAILED_PRECONDITION",
      `no Ready, unallocated host without allocation-blocking alerts has instance type ${excerpt(instanceType)}`,
      { details: { instanceType } },
    );
  }
}

/** The instance is being released or is gone: it cannot be changed any more. */
export class InstanceReleasedError extends RacksmithError {
  constructor(
    readonly instanceId: string,
    readonly phase: "release requested" | "terminated",
    action: string,
  ) {
    super(
      "instance_released",
      "FAILED_PRECONDITION",
      `cannot ${action} instance ${instanceId}: it is ${phase === "terminated" ? "terminated" : "being released"}`,
      { details: { instanceId, phase } },
    );
  }
}

export class ConfigVersionMismatchError extends RacksmithError {
  constructor(
    readonly instanceId: string,
    readonly expected: number,
    readonly current: number,
  ) {
    super(
      "config_version_mismatch",
      "FAILED_PRECONDITION",
      `instance ${instanceId} config is at version ${current}, not ${expected}`,
      { details: { instanceId, expected, current } },
    );
  }
}
