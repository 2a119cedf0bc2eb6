/**
 * `@racksmith/testkit` — what driver developers test with: the stateful Redfish mockup server (and the
 * transport-free `MockupService` behind it), the mockup recorder, and the driver conformance suite.
 */
export * from "./conformance/index.js";
export * from "./mockup/index.js";
export * from "./recorder/index.js";

import { fileURLToPath } from "node:url";

/** The bundled example mockup: a generic DMTF-standard server (one system, manager and chassis). */
export const EXAMPLE_MOCKUP: string = fileURLToPath(new URL("../mockups/example", import.meta.url));
export * from "./agents/gpus.js";
export * from "./agents/ibPorts.js";
export * from "./agents/index.js";
export * from "./fleet/index.js";
export * from "./sharedMockups/index.js";
