import { fuzzScenario } from "./fuzz/scenario.js";
import type { ChaosScenario } from "./scenario.js";
import { bmcFaultsScenario } from "./scenarios/bmcFaults.js";
import { killScenario } from "./scenarios/kill.js";
import { pgDropScenario } from "./scenarios/pgDrop.js";
import { replicaScenario } from "./scenarios/replica.js";

/** Every scenario, in the order a run takes them. */
export const SCENARIOS: readonly ChaosScenario[] = [
  killScenario,
  replicaScenario,
  pgDropScenario,
  bmcFaultsScenario,
  fuzzScenario,
];
