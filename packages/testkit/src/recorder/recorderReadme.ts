import type { RecordedError } from "./recordMockup.js";

export interface ReadmeFacts {
  readonly createdAt: Date;
  /** Address without credentials. */
  readonly service: string;
  readonly resources: number;
  readonly elapsedMs: number;
  readonly limits: { maxDepth: number; maxMembers: number; maxLogEntries: number };
  readonly errors: readonly RecordedError[];
}

const LISTED_ERRORS = 50;

/** The `README` of a recording, in the spirit of Mockup-Creator's (never a user name or password). */
export function recorderReadme(facts: ReadmeFacts): string {
  const lines = [
    "Redfish service recorded by the Racksmith mockup recorder (@racksmith/testkit)",
    `Created: ${facts.createdAt.toISOString()}`,
    `Service: ${facts.service}`,
    `Resources: ${facts.resources}`,
    `Elapsed: ${(facts.elapsedMs / 1000).toFixed(1)} s`,
    `Limits: maxDepth ${facts.limits.maxDepth}, maxMembers ${facts.limits.maxMembers}, maxLogEntries ${facts.limits.maxLogEntries}`,
    `Errors: ${facts.errors.length}`,
    ...facts.errors.slice(0, LISTED_ERRORS).map((error) => `  ${error.path}: ${error.message}`),
    ...(facts.errors.length > LISTED_ERRORS ? [`  … and ${facts.errors.length - LISTED_ERRORS} more`] : []),
  ];
  return `${lines.join("\n")}\n`;
}
