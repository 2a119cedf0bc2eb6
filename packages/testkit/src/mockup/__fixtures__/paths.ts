import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));

/** The monorepo root (`packages/testkit/src/mockup/__fixtures__` is five levels down). */
export const REPO_ROOT = resolve(here, "../../../../..");

const TINY = resolve(here, "../../../test/fixtures/tiny-mockup");

/** Hand-written full-form tree (`redfish/v1/...`) used by the semantics tests. */
export const TINY_FULL = join(TINY, "full");
/** The same tree's `redfish` folder, for the "user passed the redfish folder" layout. */
export const TINY_REDFISH_FOLDER = join(TINY, "full", "redfish");
/** A DMTF "short form" tree: the folder is the service root. */
export const TINY_SHORT = join(TINY, "short");
