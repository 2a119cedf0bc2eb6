import type {
  BmcEndpoint,
  CredentialStore,
  DpuMode,
  ExpectedMachine,
  InventoryReader,
} from "../../inventory/contracts.js";
import { TestCredentialStore } from "./memoryCredentials.js";

/** An in-memory inventory for the explorer's tests: set `endpoints` and `machines` directly. */
export class FakeInventory implements InventoryReader {
  endpoints: BmcEndpoint[] = [];
  machines: ExpectedMachine[] = [];

  constructor(readonly credentials: CredentialStore = new TestCredentialStore()) {}

  expect(
    bmcMac: string,
    chassisSerial: string,
    fields: { dpuMode?: DpuMode; fallbackDpuSerials?: string[] } = {},
  ) {
    this.machines.push({
      bmcMac,
      bmcAddress: null,
      factoryUsername: null,
      hasFactoryPassword: false,
      chassisSerial,
      fallbackDpuSerials: fields.fallbackDpuSerials ?? [],
      dpuMode: fields.dpuMode ?? "dpu",
      driver: null,
      labels: {},
      skuId: null,
      createdAt: "2026-01-01T00:00:00.000Z",
      updatedAt: "2026-01-01T00:00:00.000Z",
    });
  }

  async expectedMachine(bmcMac: string): Promise<ExpectedMachine | undefined> {
    return this.machines.find((machine) => machine.bmcMac === bmcMac);
  }

  async expectedMachines(): Promise<ExpectedMachine[]> {
    return [...this.machines];
  }

  async bmcEndpoints(): Promise<BmcEndpoint[]> {
    return [...this.endpoints];
  }
}
