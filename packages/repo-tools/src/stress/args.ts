export interface StressOptions {
  readonly runs: number;
  /** turbo `--filter` values, to stress part of the repository. */
  readonly filters: readonly string[];
  readonly hog: boolean;
}

export class UsageError extends Error {}

/** `--runs N` (default 3), `--filter <turbo filter>` (repeatable), `--no-hog`. */
export function parseStressArgs(argv: readonly string[]): StressOptions {
  let runs = 3;
  const filters: string[] = [];
  let hog = true;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const next = argv[++i];
      if (next === undefined) throw new UsageError(`${arg} needs a value`);
      return next;
    };
    if (arg === "--runs") {
      const text = value();
      runs = Number(text);
      if (!Number.isInteger(runs) || runs < 1)
        throw new UsageError(`--runs must be a whole number ≥ 1, not "${text}"`);
    } else if (arg === "--filter") {
      filters.push(value());
    } else if (arg === "--no-hog") {
      hog = false;
    } else {
      throw new UsageError(`unknown option "${arg}" (options: --runs N, --filter <package>, --no-hog)`);
    }
  }
  return { runs, filters, hog };
}
