import { type BmcDriverDefinition, collectRegistrations } from "@racksmith/core";
import dell from "@racksmith/driver-dell";
import hpe from "@racksmith/driver-hpe";
import lenovo from "@racksmith/driver-lenovo";
import nvidiaDpu from "@racksmith/driver-nvidia-dpu";
import supermicro from "@racksmith/driver-supermicro";

/** The BMC drivers of the repository's vendor packages, as the service registers them. */
export async function vendorDrivers(): Promise<BmcDriverDefinition[]> {
  const drivers: BmcDriverDefinition[] = [];
  for (const plugin of [dell, hpe, lenovo, supermicro, nvidiaDpu]) {
    drivers.push(...(await collectRegistrations(plugin)).bmcDrivers);
  }
  return drivers;
}
