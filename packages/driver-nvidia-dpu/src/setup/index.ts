export {
  type MachineSetupFacts,
  type MachineSetupPlan,
  machineSetupDiffs,
  planMachineSetup,
  respelledAttributes,
} from "./machineSetupPlan.js";
