export {
  buildGpus,
  domainUuid,
  type GeneratedLayout,
  type SimulatedDomainSpec,
  type SimulatedGpu,
  type SimulatedGpuSpec,
} from "./layout.js";
export {
  NmxmSimulator,
  type NmxmSimulatorFaults,
  type NmxmSimulatorOptions,
  type SimulatorPartitionView,
  type SimulatorRequestRecord,
} from "./simulator.js";
