import { fileURLToPath } from "node:url";

/** The package folder (the CLI runs from here, as a user of the package would). */
export const PACKAGE_DIR = fileURLToPath(new URL("../../", import.meta.url));

/** The config that lists this package by name, as an operator's would. */
export const FIXTURE_CONFIG = fileURLToPath(new URL("../fixtures/racksmith.yaml", import.meta.url));

export const BUNDLED_MODELS = ["bluefield-2", "bluefield-3"] as const;
export type BundledModel = (typeof BUNDLED_MODELS)[number];

export function mockupDir(model: BundledModel): string {
  return fileURLToPath(new URL(`../../mockups/${model}`, import.meta.url));
}
