import { InvalidArgumentError } from "@racksmith/core";

/**
 * The rules of the Redfish specification (DMTF DSP0266) the mockup enforces in strict mode, the default. Each
 * can be relaxed on its own — by a service option, or by a vendor behavior for a BMC known to be lenient there —
 * so a leniency a driver relies on is always written down.
 */
export const REDFISH_RULES = {
  methods:
    "405 with Allow for a method the resource does not support (PATCH of the service root); 501 for a method the service does not implement",
  odataVersion: "412 for a request whose OData-Version header is not 4.0",
  queryParameters:
    "501 for an unsupported $-parameter, 400 for an invalid value (only=foo, $top=x); other unknown parameters ignored",
  responseHeaders: "Allow, Cache-Control and Link rel=describedby on every GET and HEAD",
  patchProperties:
    "a PATCH with only unknown or read-only properties is 400; mixed with valid ones, 200 with @Message.ExtendedInfo naming those ignored",
  patchArrays:
    "array properties in a PATCH: {} keeps an element, null removes it, elements past the end of the request are removed",
  privileges:
    "each operation needs the privileges of the account's role (the Redfish privilege registry); predefined roles are read-only",
  subscriptions:
    "an event subscription needs a Destination URI and a Protocol the service supports (Redfish)",
  httpsRedirect: "with TLS on, a plain-HTTP request to the port is redirected to HTTPS, never answered",
} as const;

export type RedfishRule = keyof typeof REDFISH_RULES;

export const REDFISH_RULE_NAMES = Object.keys(REDFISH_RULES) as RedfishRule[];

/** A rule a vendor behavior relaxes, with the real behavior it reproduces. */
export type RedfishLeniencies = Readonly<Partial<Record<RedfishRule, string>>>;

/** Throws naming the option when a list holds something that is not a rule. */
export function checkRuleNames(names: readonly string[], option: string): RedfishRule[] {
  const unknown = names.filter((name) => !(name in REDFISH_RULES));
  if (unknown.length > 0) {
    throw new InvalidArgumentError(
      `${option}: unknown rule(s) ${unknown.join(", ")}; the rules are ${REDFISH_RULE_NAMES.join(", ")}`,
    );
  }
  return [...names] as RedfishRule[];
}

/** Which rules one service enforces: strict minus what its options and its behaviors relax. */
export class StrictRules {
  private readonly relaxed: ReadonlySet<RedfishRule>;

  constructor(
    readonly strict: boolean,
    relaxed: readonly RedfishRule[],
    private readonly relaxedByBehaviors: () => ReadonlySet<RedfishRule>,
  ) {
    this.relaxed = new Set(relaxed);
  }

  enforces(rule: RedfishRule): boolean {
    return this.strict && !this.relaxed.has(rule) && !this.relaxedByBehaviors().has(rule);
  }

  /** The rules enforced now, in catalogue order. */
  get enforced(): RedfishRule[] {
    return REDFISH_RULE_NAMES.filter((rule) => this.enforces(rule));
  }
}
