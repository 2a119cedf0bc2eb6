import { fileURLToPath } from "node:url";
import { DriverMockup, type DriverMockupOptions } from "@racksmith/testkit";
import { type SupermicroDriver, supermicroDriver } from "../../src/index.js";
import { SUPERMICRO_BEHAVIORS } from "../../src/testing/index.js";

/** The package's own mockups, by folder name. */
export const MODELS = ["sys-821ge-tnhr", "sys-121h-tnr"] as const;
export type BundledModel = (typeof MODELS)[number];

export const PACKAGE_DIR = fileURLToPath(new URL("../..", import.meta.url));

export function mockupDir(model: BundledModel): string {
  return fileURLToPath(new URL(`../../mockups/${model}`, import.meta.url));
}

export type SupermicroMockup = DriverMockup<SupermicroDriver>;

/**
 * The supermicro driver on a bundled mockup with the Supermicro behaviors; tasks complete at once. The writes
 * recorded are PATCHes and non-action POSTs (actions show in `server.actions`).
 */
export function supermicroMockup(
  model: BundledModel,
  options: Partial<DriverMockupOptions<SupermicroDriver>> = {},
): SupermicroMockup {
  return new DriverMockup({
    driver: (client, context) => supermicroDriver.create(client, context) as SupermicroDriver,
    mockup: mockupDir(model),
    behaviors: SUPERMICRO_BEHAVIORS,
    recordActions: false,
    server: { taskDurationMs: 0 },
    ...options,
  });
}
