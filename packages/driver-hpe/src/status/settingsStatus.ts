import { type TriStateStatus, triState } from "@racksmith/core";

/** One setting a status depends on: how it reads, and whether it is as required. */
export interface SettingCheck {
  label: string;
  ok: boolean;
}

/**
 * enabled when every check is ok, disabled when none is, partial otherwise; the message names both sides in
 * the caller's words (`locked: …; unlocked: …`). Settings the BMC does not report (undefined) are left out;
 * undefined when none is left.
 */
export function settingsStatus(
  checks: ReadonlyArray<SettingCheck | undefined>,
  words: { ok: string; notOk: string },
): TriStateStatus | undefined {
  const known = checks.filter((check): check is SettingCheck => check !== undefined);
  if (known.length === 0) return undefined;
  const { state } = triState(known.map(({ label, ok }) => [label, ok] as const));
  const side = (ok: boolean, word: string): string => {
    const labels = known.filter((check) => check.ok === ok).map((check) => check.label);
    return labels.length ? `${word}: ${labels.join(", ")}` : "";
  };
  return { state, message: [side(true, words.ok), side(false, words.notOk)].filter(Boolean).join("; ") };
}
