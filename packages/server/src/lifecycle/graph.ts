import {
  BOM_OPERATOR_WAITS,
  BOM_VALIDATING_STEPS,
  CLEANUP_STEPS,
  DPU_DISCOVERING_STEPS,
  DPU_INIT_STEPS,
  HOST_INIT_STEPS,
  INSTANCE_STEPS,
  type ManagedHostStateTag,
} from "./states.js";

/** A state machine as a graph of state labels: what diagrams are drawn from and histories checked against. */
export interface StateGraph {
  /** Labels as `managedHostStateLabel` prints them, grouped by their top-level state. */
  nodes: ReadonlyArray<{ id: string; group: string }>;
  /** Every transition a handler may make; `when` says what makes it happen. */
  edges: ReadonlyArray<{ from: string; to: string; when: string }>;
  initial: string;
  /** The object is removed after this state. */
  final: readonly string[];
}

const chain = (group: string, steps: readonly string[]) => steps.map((step) => `${group}/${step}`);

const nodes: Array<{ id: string; group: ManagedHostStateTag }> = [
  { id: "created", group: "created" },
  ...chain("dpuDiscovering", DPU_DISCOVERING_STEPS).map((id) => ({ id, group: "dpuDiscovering" as const })),
  ...chain("dpuInit", DPU_INIT_STEPS).map((id) => ({ id, group: "dpuInit" as const })),
  ...chain("hostInit", HOST_INIT_STEPS).map((id) => ({ id, group: "hostInit" as const })),
  ...chain("bomValidating", BOM_VALIDATING_STEPS).map((id) => ({ id, group: "bomValidating" as const })),
  { id: "validation/discovery", group: "validation" },
  { id: "validation/cleanup", group: "validation" },
  { id: "validation/onDemand", group: "validation" },
  { id: "discovered", group: "discovered" },
  { id: "ready", group: "ready" },
  ...chain("assigned", INSTANCE_STEPS).map((id) => ({ id, group: "assigned" as const })),
  ...chain("waitingForCleanup", CLEANUP_STEPS).map((id) => ({ id, group: "waitingForCleanup" as const })),
  { id: "failed", group: "failed" },
  { id: "forceDeletion", group: "forceDeletion" },
];

type Edge = { from: string; to: string; when: string };
const edge = (from: string, to: string, when: string): Edge => ({ from, to, when });

/** Consecutive steps of a chain, each with its own reason. */
function sequence(labels: readonly string[], reasons: readonly string[]): Edge[] {
  return labels.slice(1).map((to, index) => edge(labels[index] as string, to, reasons[index] ?? "done"));
}

const edges: Edge[] = [
  edge("created", "dpuDiscovering/enableRshim", "ingested with DPUs"),
  edge("created", "hostInit/disableLockdown", "ingested without DPUs"),
  ...sequence(chain("dpuDiscovering", DPU_DISCOVERING_STEPS), [
    "rshim enabled",
    "secure boot set",
    "UEFI HTTP boot once set",
  ]),
  edge("dpuDiscovering/rebootAllDpus", "dpuInit/waitingForDiscovery", "every DPU reached the sync point"),
  ...sequence(chain("dpuInit", DPU_INIT_STEPS), [
    "every DPU agent discovered its DPU",
    "host powered off",
    "host powered on",
    "DPU machine setup applied",
    "DPU BIOS setup shows",
  ]),
  edge(
    "dpuInit/waitingForNetworkConfig",
    "hostInit/disableLockdown",
    "every DPU applied the network config and is healthy",
  ),
  edge("hostInit/disableLockdown", "hostInit/machineSetup", "lockdown disabled"),
  edge("hostInit/machineSetup", "hostInit/machineSetup", "machine setup failed (retry)"),
  edge("hostInit/machineSetup", "hostInit/waitingForBiosJob", "setup started a BIOS job"),
  edge("hostInit/machineSetup", "hostInit/pollingBiosSetup", "setup applied; host restarted"),
  edge("hostInit/waitingForBiosJob", "hostInit/pollingBiosSetup", "BIOS job completed"),
  edge("hostInit/waitingForBiosJob", "hostInit/machineSetup", "BIOS job failed (retry)"),
  edge("hostInit/pollingBiosSetup", "hostInit/setBootOrder", "BIOS shows the setup"),
  edge("hostInit/setBootOrder", "hostInit/setBootOrder", "setting the boot order failed (retry)"),
  edge("hostInit/setBootOrder", "hostInit/waitingForBootOrderJob", "boot order change is a job"),
  edge("hostInit/setBootOrder", "hostInit/checkBootOrder", "boot order set; host restarted"),
  edge("hostInit/waitingForBootOrderJob", "hostInit/checkBootOrder", "boot order job completed"),
  edge("hostInit/waitingForBootOrderJob", "hostInit/setBootOrder", "boot order job failed (retry)"),
  edge("hostInit/checkBootOrder", "hostInit/waitingForDiscovery", "primary DPU boots first"),
  edge("hostInit/checkBootOrder", "hostInit/setBootOrder", "boot order not as set (retry)"),
  edge("hostInit/waitingForDiscovery", "hostInit/enableLockdown", "host agent discovered the host"),
  edge("hostInit/enableLockdown", "hostInit/waitingForDpusUp", "lockdown enabled; host restarted"),
  edge("hostInit/waitingForDpusUp", "hostInit/pollingLockdownStatus", "every DPU reported after the restart"),
  edge("hostInit/pollingLockdownStatus", "validation/discovery", "lockdown fully enabled"),
  edge(
    "hostInit/pollingLockdownStatus",
    "bomValidating/verifyingSku",
    "lockdown fully enabled; SKU validation on",
  ),
  edge(
    "waitingForCleanup/lockHost",
    "bomValidating/updatingInventory",
    "lockdown enabled; SKU validation on",
  ),
  edge("ready", "bomValidating/updatingInventory", "SKU verification requested"),
  edge("ready", "validation/onDemand", "on-demand validation run requested"),
  edge("validation/onDemand", "ready", "the run completed (its results and health tell how it went)"),
  ...bomEdges(),
  edge("validation/discovery", "discovered", "validation passed (or no runner configured)"),
  edge("validation/cleanup", "discovered", "validation passed (or no runner configured)"),
  edge("discovered", "ready", "host agent reported the reboot"),
  edge("ready", "assigned/waitingForNetworkConfig", "instance allocated: tenant network config"),
  edge(
    "assigned/waitingForNetworkConfig",
    "assigned/waitingForRebootToReady",
    "every DPU applied the tenant config",
  ),
  edge("assigned/waitingForNetworkConfig", "assigned/powerCycleOff", "instance released"),
  edge("assigned/waitingForRebootToReady", "assigned/ready", "host restarted into the tenant OS"),
  edge("assigned/ready", "assigned/powerCycleOff", "instance released"),
  ...sequence(chain("assigned", INSTANCE_STEPS.slice(3)), [
    "host powered off",
    "host powered on",
    "lockdown disabled; host restarted into the discovery image",
    "host agent reported the reboot",
    "admin network config issued",
  ]),
  edge(
    "assigned/waitingForNetworkReconfig",
    "waitingForCleanup/hostCleanup",
    "every DPU on the admin network",
  ),
  edge("waitingForCleanup/hostCleanup", "waitingForCleanup/lockHost", "host agent wiped the disks"),
  edge("waitingForCleanup/lockHost", "validation/cleanup", "lockdown enabled"),
];

/**
 * BOM validation: a fresh inventory, then the verdict; a host that passes goes on to machine validation (or
 * back to Ready after an on-demand check), one that does not waits, re-checked on every run.
 */
function bomEdges(): Edge[] {
  const bom = (step: string) => `bomValidating/${step}`;
  const waits = [...BOM_OPERATOR_WAITS];
  const exits = ["validation/discovery", "validation/cleanup", "ready"];
  return [
    edge(bom("updatingInventory"), bom("verifyingSku"), "host agent sent a fresh inventory"),
    ...["verifyingSku", ...waits].flatMap((from) => [
      ...exits.map((to) => edge(bom(from), to, "the host matches its SKU (or may go on without one)")),
      ...waits.filter((to) => to !== from).map((to) => edge(bom(from), bom(to), `verdict: ${to}`)),
    ]),
    ...waits.map((from) => edge(bom(from), bom("updatingInventory"), "SKU verification requested")),
    // Only when SKU validation is turned off while a host waits for its inventory.
    ...exits.map((to) => edge(bom("updatingInventory"), to, "SKU validation turned off")),
  ];
}

/** Waits that give up after the bounded reboot/retry cycles, and steps whose failure is final. */
const FAILING = [
  "dpuInit/waitingForDiscovery",
  "dpuInit/pollingBiosSetup",
  "dpuInit/waitingForPlatformConfiguration",
  "hostInit/machineSetup",
  "hostInit/waitingForBiosJob",
  "hostInit/pollingBiosSetup",
  "hostInit/setBootOrder",
  "hostInit/waitingForBootOrderJob",
  "hostInit/checkBootOrder",
  "hostInit/waitingForDiscovery",
  "validation/discovery",
  "validation/cleanup",
  "assigned/bootingWithDiscoveryImage",
  "waitingForCleanup/hostCleanup",
];

/** The managed-host lifecycle as a graph (the CLI draws it; tests check histories against it). */
export const MANAGED_HOST_GRAPH: StateGraph = {
  nodes,
  edges: [
    ...edges,
    ...FAILING.map((from) => edge(from, "failed", "retries or reboots exhausted, or a failure reported")),
    ...nodes
      .filter((node) => node.id !== "forceDeletion")
      .map((node) => edge(node.id, "forceDeletion", "force delete requested")),
  ],
  initial: "created",
  final: ["forceDeletion"],
};

/**
 * Steps of a history (oldest first, as labels) that the graph does not allow. A per-DPU step may repeat while
 * some DPUs advance and others do not (the label shows the least advanced one).
 */
export function invalidTransitions(
  labels: readonly string[],
  graph: StateGraph = MANAGED_HOST_GRAPH,
): Array<{ index: number; from: string; to: string }> {
  const allowed = new Set(graph.edges.map((e) => `${e.from}\u0000${e.to}`));
  const problems: Array<{ index: number; from: string; to: string }> = [];
  for (let index = 1; index < labels.length; index++) {
    const from = labels[index - 1] as string;
    const to = labels[index] as string;
    const perDpuRepeat = from === to && (from.startsWith("dpuDiscovering/") || from.startsWith("dpuInit/"));
    if (!perDpuRepeat && !allowed.has(`${from}\u0000${to}`)) problems.push({ index, from, to });
  }
  return problems;
}
