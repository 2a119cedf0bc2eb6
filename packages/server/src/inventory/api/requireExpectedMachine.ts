import type { ExpectedMachine, InventoryReader } from "../contracts.js";
import { ExpectedMachineNotFoundError } from "../errors.js";
import { requireMac } from "../requireMac.js";

/** The machine a request names: 400 for a malformed MAC, 404 (`expected_machine_not_found`) for an unknown one. */
export async function requireExpectedMachine(
  inventory: InventoryReader,
  bmcMac: string,
): Promise<ExpectedMachine> {
  const mac = requireMac(bmcMac);
  const machine = await inventory.expectedMachine(mac);
  if (!machine) throw new ExpectedMachineNotFoundError(mac);
  return machine;
}
