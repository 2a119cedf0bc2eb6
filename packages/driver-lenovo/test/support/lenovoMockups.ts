import { fileURLToPath } from "node:url";

/** Our own mockups, one per model whose behaviour differs. */
export const LENOVO_MOCKUPS = {
  sr670v2: fileURLToPath(new URL("../../mockups/thinksystem-sr670-v2", import.meta.url)),
  sr675v3: fileURLToPath(new URL("../../mockups/thinksystem-sr675-v3", import.meta.url)),
} as const;

export const PACKAGE_DIR = fileURLToPath(new URL("../..", import.meta.url));
