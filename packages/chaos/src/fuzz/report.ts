import type { Offender } from "./tally.js";

/** One failure line of the scenario: a route/method (or a group of them), the answer, and example inputs. */
export interface FailureLine {
  text: string;
  count: number;
}

/**
 * The failures as lines, most frequent first. An answer seen on more than `groupAbove` routes/methods (grpc-js's
 * "Error deserializing request" on every method) is one line naming them all: it has one cause, and one line per
 * method would bury the rest. Hangs are never grouped: each route that hangs is its own finding.
 */
export function failureLines(offenders: readonly Offender[], groupAbove = 3): FailureLine[] {
  const byAnswer = new Map<string, Offender[]>();
  for (const offender of offenders)
    byAnswer.set(offender.answer, [...(byAnswer.get(offender.answer) ?? []), offender]);
  const lines: FailureLine[] = [];
  for (const [answer, group] of byAnswer) {
    if (group.length > groupAbove && !answer.startsWith("HANG")) {
      const count = group.reduce((total, offender) => total + offender.count, 0);
      const targets = group.map((offender) => `${offender.target} ×${offender.count}`).join(", ");
      const examples = group
        .slice(0, 3)
        .map((offender) => `${offender.target}: ${offender.examples[0] ?? ""}`);
      lines.push({
        count,
        text: `${answer} on ${group.length} routes/methods ×${count} (${targets}); e.g. ${examples.join(" | ")}`,
      });
      continue;
    }
    for (const offender of group) {
      lines.push({
        count: offender.count,
        text: `${offender.target} → ${offender.answer} ×${offender.count}; e.g. ${offender.examples.join(" | ")}${
          offender.notes?.length ? `; replayed alone: ${offender.notes.join(" | ")}` : ""
        }`,
      });
    }
  }
  return lines.sort((a, b) => b.count - a.count || a.text.localeCompare(b.text));
}
