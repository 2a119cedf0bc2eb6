/**
 * The edit that fixes one `ConfigError` problem (as `formatSchemaErrors` and the feature checks word them),
 * so every config finding carries its own fix.
 */
export function configProblemFix(problem: string, file: string): string {
  const misspelt = /^unknown key (\S+) \(did you mean (\S+)\?\)/.exec(problem);
  if (misspelt) return `edit ${file}: rename ${misspelt[1]} to ${misspelt[2]}`;
  const unknown = /^unknown key ([^\s;]+)/.exec(problem);
  if (unknown) return `edit ${file}: remove ${unknown[1]}, or rename it to an allowed key`;
  const missing = /^(?:(\S+): )?missing required key (\S+)$/.exec(problem);
  if (missing) return `edit ${file}: add ${missing[1] ? `${missing[1]}.` : ""}${missing[2]}`;
  if (problem === "file not found") return `create ${file}, or pass --config with the right path`;
  if (/^line \d+:/.test(problem)) return `edit ${file}: fix the YAML at that line`;
  if (problem.startsWith("cannot read:")) return `make ${file} readable by this user`;
  const [, key, rest = ""] = /^([\w$.[\]-]+): (.+)$/.exec(problem) ?? [];
  // "must …" says what the value should be; other problems already say what to do in the detail.
  if (key) return `edit ${file}: fix ${key}${rest.startsWith("must ") ? ` (it ${rest})` : ""}`;
  return `edit ${file} to fix this`;
}
