/**
 * The mockup catalog: where a fleet's mockups come from (driver packages, found like plugins, or folders),
 * each opened and scanned once.
 */
export { MockupCatalog, type MockupCatalogOptions, type MockupTemplate } from "./mockupCatalog.js";
export { packageOf, type ResolvedMockup, resolveMockup } from "./resolveMockup.js";
