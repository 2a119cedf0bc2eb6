import type { UntypedServiceImplementation } from "@grpc/grpc-js";
import type { Logger } from "@racksmith/core";
import { timestamp } from "../../api/grpc/convert.js";
import type { ApplyExpectedMachinesRequest__Output } from "../../api/grpc/generated/racksmith/v1/ApplyExpectedMachinesRequest.js";
import type { ApplyExpectedMachinesResponse } from "../../api/grpc/generated/racksmith/v1/ApplyExpectedMachinesResponse.js";
import type { DhcpLease as DhcpLeaseMessage } from "../../api/grpc/generated/racksmith/v1/DhcpLease.js";
import type { ExpectedMachine as ExpectedMachineMessage } from "../../api/grpc/generated/racksmith/v1/ExpectedMachine.js";
import type { ExpectedMachineInput__Output } from "../../api/grpc/generated/racksmith/v1/ExpectedMachineInput.js";
import type { InventoryHandlers } from "../../api/grpc/generated/racksmith/v1/Inventory.js";
import { type GrpcServiceModule, unary } from "../../api/index.js";
import type {
  ApplyExpectedMachinesResult,
  DhcpLease,
  ExpectedMachine,
  ExpectedMachineInput,
  ExpectedMachinesMode,
  Inventory,
} from "../contracts.js";
import { INVENTORY_LIMITS } from "./grpcLimits.js";
import { requireExpectedMachine } from "./requireExpectedMachine.js";

export const INVENTORY_SERVICE = "racksmith.v1.Inventory";

/** Only the message's fields (not proto-loader's `_field` oneof markers); an absent optional stays absent. */
function toInput(message: ExpectedMachineInput__Output | null | undefined): ExpectedMachineInput {
  const input: ExpectedMachineInput = {
    bmcMac: message?.bmcMac ?? "",
    chassisSerial: message?.chassisSerial ?? "",
  };
  if (!message) return input;
  if (message.bmcAddress !== undefined) input.bmcAddress = message.bmcAddress;
  if (message.factoryUsername !== undefined) input.factoryUsername = message.factoryUsername;
  if (message.factoryPassword !== undefined) input.factoryPassword = message.factoryPassword;
  if (message.fallbackDpuSerials.length) input.fallbackDpuSerials = message.fallbackDpuSerials;
  if (message.dpuMode !== undefined) input.dpuMode = message.dpuMode as ExpectedMachineInput["dpuMode"];
  if (message.driver !== undefined) input.driver = message.driver;
  if (Object.keys(message.labels).length) input.labels = message.labels;
  if (message.skuId !== undefined) input.skuId = message.skuId;
  return input;
}

function toMachineMessage(machine: ExpectedMachine): ExpectedMachineMessage {
  return {
    bmcMac: machine.bmcMac,
    ...(machine.bmcAddress !== null ? { bmcAddress: machine.bmcAddress } : {}),
    ...(machine.factoryUsername !== null ? { factoryUsername: machine.factoryUsername } : {}),
    hasFactoryPassword: machine.hasFactoryPassword,
    chassisSerial: machine.chassisSerial,
    fallbackDpuSerials: machine.fallbackDpuSerials,
    dpuMode: machine.dpuMode,
    ...(machine.driver !== null ? { driver: machine.driver } : {}),
    labels: machine.labels,
    ...(machine.skuId !== null ? { skuId: machine.skuId } : {}),
    createdAt: timestamp(machine.createdAt),
    updatedAt: timestamp(machine.updatedAt),
  };
}

function toLeaseMessage(lease: DhcpLease): DhcpLeaseMessage {
  return {
    mac: lease.mac,
    address: lease.address,
    ...(lease.vendorClass !== null ? { vendorClass: lease.vendorClass } : {}),
    ...(lease.relay !== null ? { relay: lease.relay } : {}),
    static: lease.static,
    updatedAt: timestamp(lease.updatedAt),
  };
}

function toApplyResponse(result: ApplyExpectedMachinesResult): ApplyExpectedMachinesResponse {
  return {
    applied: result.applied,
    deleted: result.deleted,
    results: result.results.map((row) => ({
      index: row.index,
      bmcMac: row.bmcMac,
      ok: row.ok,
      ...(row.error ? { error: row.error } : {}),
    })),
  };
}

/** `racksmith.v1.Inventory`: the REST inventory routes' calls over gRPC, through the same error mapping. */
export function inventoryGrpcService(inventory: Inventory, logger: Logger): GrpcServiceModule {
  const context = { logger };
  const apply = (mode: ExpectedMachinesMode) =>
    unary(context, async (request: ApplyExpectedMachinesRequest__Output) =>
      toApplyResponse(
        await inventory.applyExpectedMachines(request.machines.map(toInput), {
          mode,
          acceptPartial: request.acceptPartial,
        }),
      ),
    );
  const handlers: InventoryHandlers = {
    AddExpectedMachine: unary(context, async (request) =>
      toMachineMessage(await inventory.addExpectedMachine(toInput(request.machine))),
    ),
    UpdateExpectedMachine: unary(context, async (request) => {
      const input = toInput(request.machine);
      return toMachineMessage(await inventory.updateExpectedMachine(input.bmcMac, input));
    }),
    DeleteExpectedMachine: unary(context, async (request) => {
      await inventory.deleteExpectedMachine(request.bmcMac);
      return {};
    }),
    GetExpectedMachine: unary(context, async (request) =>
      toMachineMessage(await requireExpectedMachine(inventory, request.bmcMac)),
    ),
    ListExpectedMachines: unary(context, async () => ({
      machines: (await inventory.expectedMachines()).map(toMachineMessage),
    })),
    CreateExpectedMachines: apply("add"),
    ReplaceAllExpectedMachines: apply("replace-all"),
    DiscoverDhcp: unary(context, async (request) =>
      toLeaseMessage(
        await inventory.discoverDhcp({
          mac: request.mac,
          ...(request.vendorClass !== undefined ? { vendorClass: request.vendorClass } : {}),
          ...(request.relay !== undefined ? { relay: request.relay } : {}),
        }),
      ),
    ),
    ListDhcpLeases: unary(context, async () => ({
      leases: (await inventory.dhcpLeases()).map(toLeaseMessage),
    })),
    ListBmcEndpoints: unary(context, async () => ({ endpoints: await inventory.bmcEndpoints() })),
  };
  return {
    protoFile: "racksmith/v1/inventory.proto",
    serviceName: INVENTORY_SERVICE,
    handlers: handlers as UntypedServiceImplementation,
    limits: INVENTORY_LIMITS,
  };
}
