import type { DhcpDiscovery, DpuMode, ExpectedMachineInput } from "@racksmith/server";
import type { FaultRule, MockupCredentials } from "@racksmith/testkit";
import { MockupCatalog, type MockupCatalogOptions, type MockupTemplate } from "../catalog/index.js";
import { FleetCapacityError, FleetMockupError, FleetScenarioError } from "../errors.js";
import { displayMac, IdentityAllocator, macOffset, macPlus } from "../identity/index.js";
import type { FleetScenario, HostGroup } from "../scenario/index.js";
import { AddressPool } from "./addressPool.js";
import { type ChosenAnomaly, chooseAnomalies } from "./chooseAnomalies.js";
import { seededRandom } from "./random.js";
import type { FleetAnomaly, FleetPlan, VirtualBmcKind, VirtualBmcPlan } from "./types.js";
import { vendorCredentials } from "./vendorCredentials.js";

const DEFAULT_ADDRESS_POOL = "10.100.0.0/16";
const DPU_VENDOR = "nvidia-dpu";

interface GroupTemplates {
  readonly group: HostGroup;
  readonly host: MockupTemplate;
  readonly dpu: MockupTemplate | undefined;
  readonly dpuVendor: string;
  readonly dpuCount: number;
  readonly dpuMode: DpuMode;
}

export interface PlanFleetOptions extends Partial<MockupCatalogOptions> {
  /**
   * Reuse opened mockups (default: a new catalog looking up from `baseDir`, default the working directory).
   */
  readonly catalog?: MockupCatalog;
}

/**
 * Turns a scenario into virtual BMCs with unique identities, addresses and anomalies, plus the expected
 * machines and DHCP discoveries that match them. Deterministic: the same scenario (seed included) plans the
 * same fleet. A host's BlueField cards get their DPUs' serials, and their ports the DPUs' base MACs.
 */
export async function planFleet(scenario: FleetScenario, options: PlanFleetOptions = {}): Promise<FleetPlan> {
  const catalog =
    options.catalog ??
    new MockupCatalog({
      baseDir: options.baseDir ?? process.cwd(),
      ...(options.behaviors ? { behaviors: options.behaviors } : {}),
    });
  const groups = await Promise.all(
    scenario.hosts.map((group, index) => templatesOf(group, `hosts[${index}]`, catalog)),
  );
  const hosts = groups.flatMap((templates) =>
    Array.from({ length: templates.group.count ?? 1 }, () => templates),
  );
  const planner = new FleetPlanner(scenario);
  const chosen = chooseAnomalies(
    hosts.map((templates) => ({ hasDpu: templates.dpuMode === "dpu" && templates.dpuCount > 0 })),
    scenario.anomalies,
    seededRandom(planner.seed),
  );
  hosts.forEach((templates, index) => {
    planner.planHost(`host-${String(index + 1).padStart(4, "0")}`, templates, chosen.get(index));
  });
  return planner.plan();
}

interface PlannedCredentials {
  readonly factory: MockupCredentials;
  readonly actual: MockupCredentials;
  readonly passwordChangeRequired: boolean;
}

/** Plans hosts one by one (each host's DPUs first: the host's card takes their identity). */
class FleetPlanner {
  readonly seed: string;
  private readonly allocator: IdentityAllocator;
  private readonly addresses: AddressPool;
  private readonly bmcs: VirtualBmcPlan[] = [];
  private readonly expectedMachines: ExpectedMachineInput[] = [];
  private readonly anomalies: FleetAnomaly[] = [];

  constructor(private readonly scenario: FleetScenario) {
    this.seed = String(scenario.seed ?? 1);
    this.allocator = new IdentityAllocator(this.seed);
    this.addresses = new AddressPool(scenario.addressPool ?? DEFAULT_ADDRESS_POOL);
  }

  planHost(hostId: string, templates: GroupTemplates, anomaly: ChosenAnomaly | undefined): void {
    const { host, group } = templates;
    const address = this.addresses.take();
    const { dpus, explicit } =
      anomaly?.kind === "missingDpu"
        ? { dpus: [], explicit: new Map<number, string>() }
        : this.planDpus(hostId, templates, anomaly);
    const values = this.allocator.assign(host.identity, explicit);
    const onHost = anomaly?.target === "host" ? anomaly : undefined;
    const credentials = this.credentialsOf(group.vendor, onHost?.kind === "unauthorized");
    const cards = host.identity.cards;
    const hostPlan = bmcPlan({
      id: hostId,
      kind: "host",
      vendor: group.vendor,
      template: host,
      values,
      address,
      credentials,
      anomaly: onHost,
      nicMode: false,
      host: undefined,
      dpus: dpus.map((bmc) => bmc.id),
      dpuSerials: cards.map((card) => valueAt(values, card.serial)),
      dpuMacs: cards.flatMap((card) =>
        card.ports[0] === undefined ? [] : [displayMac(valueAt(values, card.ports[0]))],
      ),
    });
    this.bmcs.push(hostPlan, ...dpus);

    const wrongSerial =
      anomaly?.kind === "wrongSerial"
        ? this.allocator.serial(tokenValue(host, host.identity.chassisSerial))
        : undefined;
    this.expectedMachines.push({
      bmcMac: hostPlan.mac,
      factoryUsername: credentials.factory.username,
      factoryPassword: credentials.factory.password,
      chassisSerial: wrongSerial ?? hostPlan.chassisSerial ?? hostPlan.serial,
      dpuMode: templates.dpuMode,
      ...(group.labels ? { labels: { ...group.labels } } : {}),
      ...(group.skuId ? { skuId: group.skuId } : {}),
      ...(group.pinDriver ? { driver: group.driver ?? group.vendor } : {}),
    });
    if (anomaly) {
      const target = anomaly.target === "dpu" ? (dpus[0] ?? hostPlan) : hostPlan;
      this.anomalies.push({
        kind: anomaly.kind,
        bmc: target.id,
        host: hostId,
        description: describeAnomaly(anomaly, hostPlan, dpus, wrongSerial),
      });
    }
  }

  plan(): FleetPlan {
    const discoveries: DhcpDiscovery[] = this.bmcs.map((bmc) => ({ mac: bmc.mac }));
    if (new Set(discoveries.map((discovery) => discovery.mac)).size !== discoveries.length) {
      throw new FleetCapacityError("distinct BMC MACs");
    }
    const factoryDefaults: Record<string, MockupCredentials> = {};
    for (const vendor of new Set(this.bmcs.map((bmc) => bmc.vendor))) {
      const { username, password } = vendorCredentials(vendor, this.scenario.credentials);
      if (password !== undefined) factoryDefaults[vendor] = { username, password };
    }
    return {
      bmcs: this.bmcs,
      expectedMachines: this.expectedMachines,
      discoveries,
      factoryDefaults,
      anomalies: this.anomalies,
      lockout: this.scenario.lockout,
    };
  }

  /**
   * The host's DPUs, and the host tokens that take their values: card serials, port MACs from the base MAC.
   */
  private planDpus(
    hostId: string,
    templates: GroupTemplates,
    anomaly: ChosenAnomaly | undefined,
  ): { dpus: VirtualBmcPlan[]; explicit: Map<number, string> } {
    const { host, dpu } = templates;
    const dpus: VirtualBmcPlan[] = [];
    const explicit = new Map<number, string>();
    const roles = dpu?.identity.dpu;
    if (!dpu || !roles) return { dpus, explicit };
    for (let k = 0; k < templates.dpuCount; k++) {
      const values = this.allocator.assign(dpu.identity);
      const baseMac = valueAt(values, roles.baseMac);
      const card = host.identity.cards[k];
      if (card) {
        explicit.set(card.serial, valueAt(values, roles.serial));
        const first = tokenValue(host, card.ports[0]);
        for (const port of card.ports) {
          explicit.set(port, macPlus(baseMac, macOffset(first, tokenValue(host, port))));
        }
      }
      const onDpu = anomaly?.target === "dpu" && k === 0 ? anomaly : undefined;
      dpus.push(
        bmcPlan({
          id: `${hostId}-dpu${k + 1}`,
          kind: "dpu",
          vendor: templates.dpuVendor,
          template: dpu,
          values,
          address: this.addresses.take(),
          credentials: this.credentialsOf(templates.dpuVendor, onDpu?.kind === "unauthorized"),
          anomaly: onDpu ?? (anomaly?.kind === "nicModeDpu" ? anomaly : undefined),
          nicMode: templates.dpuMode === "nic" || anomaly?.kind === "nicModeDpu",
          host: hostId,
          dpus: [],
          dpuSerials: [],
          dpuMacs: [displayMac(baseMac)],
        }),
      );
    }
    return { dpus, explicit };
  }

  /** The vendor's factory account, and what the BMC really accepts (another password when unauthorized). */
  private credentialsOf(vendor: string, unauthorized: boolean): PlannedCredentials {
    const configured = vendorCredentials(vendor, this.scenario.credentials);
    const factory = {
      username: configured.username,
      password: configured.password ?? this.allocator.password(),
    };
    return {
      factory,
      actual: unauthorized ? { ...factory, password: this.allocator.password() } : factory,
      passwordChangeRequired: configured.passwordChangeRequired === true,
    };
  }
}

async function templatesOf(group: HostGroup, key: string, catalog: MockupCatalog): Promise<GroupTemplates> {
  const host = await catalog.template(group, key);
  if (host.identity.managerMac === undefined || host.identity.systemSerial === undefined) {
    throw new FleetMockupError(`${key}.model`, `${host.dir} shows no manager MAC or no system serial`);
  }
  const dpuVendor = group.dpu?.vendor ?? DPU_VENDOR;
  const dpu = group.dpu
    ? await catalog.template({ ...group.dpu, vendor: dpuVendor }, `${key}.dpu`)
    : undefined;
  if (dpu && (!dpu.identity.dpu || dpu.identity.managerMac === undefined)) {
    throw new FleetMockupError(
      `${key}.dpu.model`,
      `${dpu.dir} is not a BlueField DPU mockup (no card serial, no Oem.Nvidia.BaseMAC or DPU_SYS_IMAGE base GUID, or no manager MAC)`,
    );
  }
  const dpuCount = group.dpu ? (group.dpu.count ?? 1) : 0;
  if (dpuCount > host.identity.cards.length) {
    throw new FleetScenarioError([
      {
        key: `${key}.dpu.count`,
        problem: `is ${dpuCount} but ${host.model} shows ${host.identity.cards.length} BlueField card(s) to pair them with`,
      },
    ]);
  }
  return { group, host, dpu, dpuVendor, dpuCount, dpuMode: group.dpuMode ?? (dpu ? "dpu" : "no-dpu") };
}

interface BmcPlanInput {
  readonly id: string;
  readonly kind: VirtualBmcKind;
  readonly vendor: string;
  readonly template: MockupTemplate;
  readonly values: readonly string[];
  readonly address: string;
  readonly credentials: PlannedCredentials;
  readonly anomaly: ChosenAnomaly | undefined;
  readonly nicMode: boolean;
  readonly host: string | undefined;
  readonly dpus: readonly string[];
  readonly dpuSerials: readonly string[];
  readonly dpuMacs: readonly string[];
}

function bmcPlan(input: BmcPlanInput): VirtualBmcPlan {
  const { identity } = input.template;
  const kind = input.anomaly?.kind;
  const serialToken = input.kind === "dpu" ? identity.dpu?.serial : identity.systemSerial;
  return {
    id: input.id,
    kind: input.kind,
    vendor: input.vendor,
    template: input.template,
    mac: displayMac(valueAt(input.values, identity.managerMac)),
    address: input.address,
    serial: valueAt(input.values, serialToken),
    chassisSerial: identity.chassisSerial === undefined ? undefined : input.values[identity.chassisSerial],
    identity: input.values,
    credentials: input.credentials.actual,
    factoryCredentials: input.credentials.factory,
    passwordChangeRequired: input.credentials.passwordChangeRequired || kind === "passwordChangeRequired",
    nicMode: input.nicMode,
    poweredOff: kind === "poweredOff",
    faults: input.anomaly ? faultsOf(input.anomaly) : [],
    host: input.host,
    dpus: input.dpus,
    dpuSerials: input.dpuSerials,
    dpuMacs: input.dpuMacs,
    anomalies: kind ? [kind] : [],
  };
}

/**
 * The fault rules of an anomaly that fault injection plays out (before authentication, as a network would).
 */
function faultsOf(anomaly: ChosenAnomaly): FaultRule[] {
  switch (anomaly.kind) {
    case "unreachable":
      return [{ path: "/**", reset: true }];
    case "slow":
      return [{ path: "/**", latencyMs: anomaly.latencyMs }];
    case "malformedJson":
      return [{ path: "/redfish/v1/**", malformed: true }];
    default:
      return [];
  }
}

function describeAnomaly(
  anomaly: ChosenAnomaly,
  host: VirtualBmcPlan,
  dpus: readonly VirtualBmcPlan[],
  wrongSerial: string | undefined,
): string {
  switch (anomaly.kind) {
    case "wrongSerial":
      return `the expected machine says ${wrongSerial}, the BMC reports ${host.chassisSerial ?? host.serial}`;
    case "nicModeDpu":
      return `${dpus.map((dpu) => dpu.id).join(", ")} ${dpus.length === 1 ? "reports" : "report"} NIC mode; the expected machine says dpu`;
    case "missingDpu":
      return `shows BlueField ${host.dpuSerials.join(", ")} but no DPU BMC serves it`;
    case "poweredOff":
      return "starts powered off";
    case "passwordChangeRequired":
      return "answers 403 PasswordChangeRequired until its factory password is changed";
    case "unauthorized":
      return "refuses its registered factory password (401)";
    case "unreachable":
      return "drops every connection";
    case "slow":
      return `answers after ${anomaly.latencyMs} ms`;
    case "malformedJson":
      return "answers truncated JSON";
  }
}

function tokenValue(template: MockupTemplate, token: number | undefined): string {
  return token === undefined ? "" : (template.identity.tokens[token]?.value ?? "");
}

function valueAt(values: readonly string[], token: number | undefined): string {
  return token === undefined ? "" : (values[token] ?? "");
}
