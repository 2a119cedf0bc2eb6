/** How long a chaos run is: `short` is what `.ci/run` runs; `long` is for a soak (documented in the README). */
export type ChaosForm = "short" | "long";

export interface ChaosOptions {
  form: ChaosForm;
  /** PostgreSQL for the scenarios that need it (`RACKSMITH_TEST_DATABASE_URL`); each makes its own schema. */
  databaseUrl: string | undefined;
  /** Progress lines, printed as they come. */
  log: (line: string) => void;
}

/** One line of the summary table: what was measured and its value. */
export interface ChaosMeasure {
  measure: string;
  value: string | number;
}

export interface ScenarioResult {
  /** Why the scenario did not run (a part this machine lacks); printed, and not a failure. */
  skipped?: string;
  measures: ChaosMeasure[];
  /** Every broken promise the scenario saw; empty when it passed. */
  failures: string[];
}

/** One chaos or fuzz scenario: runs against real processes and reports what it measured and what broke. */
export interface ChaosScenario {
  name: string;
  description: string;
  run(options: ChaosOptions): Promise<ScenarioResult>;
}
