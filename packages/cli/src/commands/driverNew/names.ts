import { UsageError } from "../../errors.js";

/** What every generated file is named after, derived once from the command line. */
export interface DriverNames {
  /** The driver's name as registered and pinned (`acme`, `big-iron`). */
  name: string;
  /** The npm package: `racksmith-driver-<name>`, under `@<scope>/` when one is given. */
  packageName: string;
  /** The vendor as the BMC spells it in its service root (`Vendor`), and as `drivers list` shows it. */
  vendor: string;
  /** `AcmeDriver`: the class over `RedfishStandard`. */
  className: string;
  /** `acmeDriver`: the driver definition the plugin registers. */
  definitionName: string;
  /** `detectAcme`: the detection function. */
  detectName: string;
}

const NAME = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
const NAME_RULE =
  "a driver name is kebab-case: lowercase letters and digits in words joined by single hyphens, starting with a letter, at most 40 characters (e.g. acme, big-iron)";
const SCOPE = /^[a-z0-9][a-z0-9._~-]*$/;
const VENDOR = /^[A-Za-z0-9][A-Za-z0-9 .,&()+_-]{0,59}$/;
const RESERVED = new Set(["redfish-standard"]);

export function driverNames(name: string, options: { scope?: string; vendor?: string } = {}): DriverNames {
  if (!NAME.test(name) || name.length > 40) {
    throw new UsageError(`invalid driver name ${JSON.stringify(name)}: ${NAME_RULE}`);
  }
  if (RESERVED.has(name)) {
    throw new UsageError(
      `invalid driver name ${JSON.stringify(name)}: it is the built-in standard driver's; choose your hardware's name`,
    );
  }
  const words = name.split("-");
  const pascal = words.map((word) => word[0]?.toUpperCase() + word.slice(1)).join("");
  const vendor =
    options.vendor?.trim() || words.map((word) => word[0]?.toUpperCase() + word.slice(1)).join(" ");
  if (!VENDOR.test(vendor)) {
    throw new UsageError(
      `invalid --vendor ${JSON.stringify(vendor)}: a vendor is letters, digits, spaces and . , & ( ) + _ - (e.g. "Acme Systems")`,
    );
  }
  return {
    name,
    packageName: `${scopePrefix(options.scope)}racksmith-driver-${name}`,
    vendor,
    className: `${pascal}Driver`,
    definitionName: `${pascal[0]?.toLowerCase()}${pascal.slice(1)}Driver`,
    detectName: `detect${pascal}`,
  };
}

function scopePrefix(scope: string | undefined): string {
  if (scope === undefined) return "";
  const bare = scope.replace(/^@/, "").replace(/\/$/, "");
  if (!SCOPE.test(bare)) {
    throw new UsageError(
      `invalid --scope ${JSON.stringify(scope)}: an npm scope is lowercase letters, digits, "-", "." or "_" (e.g. @acme)`,
    );
  }
  return `@${bare}/`;
}
