import type { Insertable, Selectable } from "kysely";
import type { ExpectedMachine } from "../contracts.js";
import type { ExpectedMachinesTable } from "../tables.js";
import type { ValidExpectedMachine } from "./validate.js";

export type ExpectedMachineRow = Selectable<ExpectedMachinesTable>;

/** The API's view of a row: no password, only whether one is stored. */
export function toExpectedMachine(row: ExpectedMachineRow): ExpectedMachine {
  return {
    bmcMac: row.bmc_mac,
    bmcAddress: row.bmc_address,
    factoryUsername: row.factory_username,
    hasFactoryPassword: row.has_factory_password,
    chassisSerial: row.chassis_serial,
    fallbackDpuSerials: [...row.fallback_dpu_serials],
    dpuMode: row.dpu_mode,
    driver: row.driver,
    labels: { ...row.labels },
    skuId: row.sku_id,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export function toRowValues(
  machine: ValidExpectedMachine,
  hasFactoryPassword: boolean,
  times: { createdAt: Date; updatedAt: Date },
): Insertable<ExpectedMachinesTable> {
  return {
    bmc_mac: machine.bmcMac,
    bmc_address: machine.bmcAddress,
    bmc_address_ipv4: machine.bmcAddressIpv4,
    factory_username: machine.factoryUsername,
    has_factory_password: hasFactoryPassword,
    chassis_serial: machine.chassisSerial,
    fallback_dpu_serials: JSON.stringify(machine.fallbackDpuSerials),
    dpu_mode: machine.dpuMode,
    driver: machine.driver,
    labels: JSON.stringify(machine.labels),
    sku_id: machine.skuId,
    created_at: times.createdAt,
    updated_at: times.updatedAt,
  };
}
