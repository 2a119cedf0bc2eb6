import type { DhcpDiscovery, ExpectedMachineInput } from "@racksmith/server";
import type { FaultRule, MockupCredentials, MockupLockoutPolicy } from "@racksmith/testkit";
import type { MockupTemplate } from "../catalog/index.js";
import type { AnomalyKind } from "../scenario/index.js";

export type VirtualBmcKind = "host" | "dpu";

/** One anomaly of the fleet, where it is and what to expect from it. */
export interface FleetAnomaly {
  readonly kind: AnomalyKind;
  /** The virtual BMC showing it (the host's, or its DPU's). */
  readonly bmc: string;
  /** The host it belongs to. */
  readonly host: string;
  readonly description: string;
}

/** One virtual BMC as planned: where its mockup is, who it is, how it misbehaves. */
export interface VirtualBmcPlan {
  /** `host-0001`, `host-0001-dpu1`. */
  readonly id: string;
  readonly kind: VirtualBmcKind;
  readonly vendor: string;
  readonly template: MockupTemplate;
  /** The BMC's own MAC (`AA:BB:CC:DD:EE:FF`), what DHCP and expected machines know it by. */
  readonly mac: string;
  /** Where it answers until a DHCP answer moves it. */
  readonly address: string;
  /** Host: the system serial; DPU: the card's serial (what the host lists for it). */
  readonly serial: string;
  /** Host: the serial of the system's chassis (what its expected machine names). */
  readonly chassisSerial: string | undefined;
  /** New value of every token of the template's identity, in order. */
  readonly identity: readonly string[];
  /** The account the BMC accepts at start. */
  readonly credentials: MockupCredentials;
  /** The factory account registered for it (differs from `credentials` for an `unauthorized` BMC). */
  readonly factoryCredentials: MockupCredentials;
  readonly passwordChangeRequired: boolean;
  /** DPU: reports NIC mode. */
  readonly nicMode: boolean;
  /** Host: starts powered off. */
  readonly poweredOff: boolean;
  readonly faults: readonly FaultRule[];
  /** DPU: its host's id. */
  readonly host: string | undefined;
  /** Host: its DPUs' ids (a missing DPU has none). */
  readonly dpus: readonly string[];
  /** Host: the serial of each BlueField card it shows, as served. */
  readonly dpuSerials: readonly string[];
  /** Host: each card's first host-facing port MAC, as served. DPU: its base MAC, as served. */
  readonly dpuMacs: readonly string[];
  readonly anomalies: readonly AnomalyKind[];
}

/** Everything a scenario makes: the virtual BMCs and what to register with the service for them. */
export interface FleetPlan {
  readonly bmcs: readonly VirtualBmcPlan[];
  /** One per host BMC (DPUs are found through their hosts). */
  readonly expectedMachines: readonly ExpectedMachineInput[];
  /** One per BMC, hosts and DPUs. */
  readonly discoveries: readonly DhcpDiscovery[];
  /** The factory account per vendor whose BMCs share one (the credential store's `factory-default`s). */
  readonly factoryDefaults: Readonly<Record<string, MockupCredentials>>;
  readonly anomalies: readonly FleetAnomaly[];
  /** Every BMC locks an account after this many failed logins in a row (none when absent). */
  readonly lockout: MockupLockoutPolicy | undefined;
}
