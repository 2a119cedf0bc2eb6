import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { DEFAULT_CONFIG, type LoadedConfig } from "@racksmith/server";

/** Every vendor driver of the repository, as an operator with all of them in racksmith.yaml has. */
export const ALL_DRIVERS: LoadedConfig = {
  config: {
    ...DEFAULT_CONFIG,
    plugins: [
      "@racksmith/driver-dell",
      "@racksmith/driver-hpe",
      "@racksmith/driver-lenovo",
      "@racksmith/driver-supermicro",
      "@racksmith/driver-nvidia-dpu",
    ],
  },
  file: undefined,
  // packages/chaos: where the driver packages resolve from.
  baseDir: dirname(dirname(fileURLToPath(import.meta.url))),
};
