import { HOST_TEST_RUNS } from "../lifecycle/index.js";
import type { ServiceFeature } from "../service/feature.js";
import { machineValidationGrpcServices, machineValidationRestRoutes } from "./api/index.js";
import { createHostTestRuns } from "./hostTestRuns.js";
import { MachineValidationService } from "./service.js";
import { MachineValidationStore } from "./store.js";

/**
 * Machine validation (issue 21): the test catalogue and runs API always (answering `host_tests_not_loaded`
 * without a plugin registering host test rules), and, with rules loaded, their built-in tests in the catalogue
 * and the host agent running the tests in the lifecycle's `validation` state.
 */
export const machineValidationFeature: ServiceFeature = {
  name: "machineValidation",
  async setup(context) {
    const rules = context.host.hostTestRules()[0]?.definition;
    const { database, engine, logger } = context;
    if (rules) {
      const store = new MachineValidationStore(database.db);
      await store.writeBuiltIns(rules.builtInTests, new Date());
      context.extensions.add(
        HOST_TEST_RUNS,
        createHostTestRuns({ store, rules, clock: () => new Date(), logger }),
      );
    }
    const service = new MachineValidationService({ database, engine, logger, rules });
    return {
      rest: machineValidationRestRoutes(service),
      grpc: machineValidationGrpcServices(service, logger),
    };
  },
};
