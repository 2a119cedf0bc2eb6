import type { HostTestOutcome, MachineInventory, ValidationTestResult } from "@racksmith/core";
import { InvalidArgumentError } from "@racksmith/core";
import type { HealthProbeAlert, HealthReport } from "@racksmith/core/health";
import type { HealthReport__Output } from "../../api/grpc/generated/racksmith/v1/HealthReport.js";
import type { InterfaceObservation__Output } from "../../api/grpc/generated/racksmith/v1/InterfaceObservation.js";
import type { MachineInventory__Output } from "../../api/grpc/generated/racksmith/v1/MachineInventory.js";
import type { ValidationTestResult__Output } from "../../api/grpc/generated/racksmith/v1/ValidationTestResult.js";
import type { InterfaceObservation } from "../tables.js";
import { DPU_AGENT_HEALTH_SOURCE } from "./agentStore.js";
import { isoFromTimestamp, requiredString, uint } from "./protoValues.js";

/** The host agent's inventory message as stored (numbers as numbers, no proto3 empty messages). */
export function inventoryFromMessage(message: MachineInventory__Output | null): MachineInventory {
  if (!message) throw new InvalidArgumentError("inventory is required");
  if (!message.serial && message.nics.length === 0) {
    throw new InvalidArgumentError("inventory.serial is required (or at least one inventory.nics MAC)");
  }
  return {
    serial: message.serial,
    vendor: message.vendor,
    model: message.model,
    cpus: message.cpus.map((cpu) => ({ model: cpu.model, cores: cpu.cores, threads: cpu.threads })),
    memoryBytes: uint(message.memoryBytes, "inventory.memory_bytes"),
    disks: message.disks.map((disk, i) => ({
      name: disk.name,
      model: disk.model,
      serial: disk.serial,
      sizeBytes: uint(disk.sizeBytes, `inventory.disks[${i}].size_bytes`),
    })),
    nics: message.nics.map((nic) => ({
      name: nic.name,
      mac: nic.mac,
      model: nic.model,
      pciAddress: nic.pciAddress,
    })),
    gpus: message.gpus.map((gpu) => ({
      model: gpu.model,
      serial: gpu.serial,
      pciAddress: gpu.pciAddress,
      platform: gpu.platform
        ? { chassisSerial: gpu.platform.chassisSerial, slot: gpu.platform.slot, tray: gpu.platform.tray }
        : null,
    })),
    ibPorts: message.ibPorts.map((port) => ({
      device: port.device,
      port: port.port,
      guid: port.guid,
      rateGbps: port.rateGbps,
    })),
  };
}

export function interfacesFromMessage(
  interfaces: readonly InterfaceObservation__Output[],
): InterfaceObservation[] {
  return interfaces.map((observed, i) => ({
    function: requiredString(observed.function, `interfaces[${i}].function`),
    network: observed.network,
    linkUp: observed.linkUp,
  }));
}

/**
 * The DPU agent's own health checks. Probe ids and classifications must be non-empty (the health merge keys
 * on them); the source is always the DPU agent's, whatever it sent (the store stamps it again anyway).
 */
export function dpuHealthFromMessage(message: HealthReport__Output | null): HealthReport {
  if (!message) return { source: DPU_AGENT_HEALTH_SOURCE, successes: [], alerts: [] };
  return {
    source: DPU_AGENT_HEALTH_SOURCE,
    ...(message.triggeredBy ? { triggeredBy: message.triggeredBy } : {}),
    successes: message.successes.map((success, i) => ({
      id: requiredString(success.id, `health.successes[${i}].id`),
      ...(success.target ? { target: success.target } : {}),
    })),
    alerts: message.alerts.map((alert, i): HealthProbeAlert => {
      const field = `health.alerts[${i}]`;
      const inAlertSince = isoFromTimestamp(alert.inAlertSince, `${field}.in_alert_since`);
      alert.classifications.forEach((c, j) => {
        requiredString(c, `${field}.classifications[${j}]`);
      });
      return {
        id: requiredString(alert.id, `${field}.id`),
        ...(alert.target ? { target: alert.target } : {}),
        ...(inAlertSince ? { inAlertSince } : {}),
        message: alert.message,
        ...(alert.tenantMessage ? { tenantMessage: alert.tenantMessage } : {}),
        classifications: [...alert.classifications],
      };
    }),
  };
}

export function validationResultsFromMessage(
  results: readonly ValidationTestResult__Output[],
): ValidationTestResult[] {
  return results.map((result, i) => ({
    name: requiredString(result.name, `results[${i}].name`),
    passed: result.passed,
    message: result.message,
    durationMs: uint(result.durationMs, `results[${i}].duration_ms`),
  }));
}

/** A run of host tests as the agent reports it: per test, how its command ended and the end of its output. */
export function hostTestOutcomesFromMessage(
  results: readonly ValidationTestResult__Output[],
): HostTestOutcome[] {
  return results.map((result, i) => {
    const at = `results[${i}]`;
    const startedAt = isoFromTimestamp(result.startedAt, `${at}.started_at`);
    return {
      testId: requiredString(result.name, `${at}.name`),
      exitCode: result.exitCode ?? null,
      stdout: result.stdout,
      stderr: result.stderr,
      // Missing times are stamped with the time of receipt when stored.
      startedAt: startedAt ?? "",
      endedAt: isoFromTimestamp(result.endedAt, `${at}.ended_at`) ?? startedAt ?? "",
      timedOut: result.timedOut,
    };
  });
}
