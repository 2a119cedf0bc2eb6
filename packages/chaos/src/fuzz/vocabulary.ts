import { vocabularyKey } from "./schema.js";

/** Builds a vocabulary from JSON answers: every string under a key, by normalised key (capped per key). */
export function harvestVocabulary(
  answers: readonly unknown[],
  seeds: Record<string, string[]> = {},
): Map<string, string[]> {
  const vocabulary = new Map<string, string[]>();
  const add = (key: string, value: string) => {
    const list = vocabulary.get(vocabularyKey(key)) ?? [];
    if (list.length < 16 && !list.includes(value) && value.length <= 256) list.push(value);
    vocabulary.set(vocabularyKey(key), list);
  };
  for (const [key, values] of Object.entries(seeds)) for (const value of values) add(key, value);
  // Iterative walk: answers can be deep, and the vocabulary must not depend on recursion limits.
  const stack: Array<[string, unknown]> = answers.map((answer) => ["", answer]);
  while (stack.length > 0) {
    const [key, value] = stack.pop() as [string, unknown];
    if (typeof value === "string" && key) add(key, value);
    else if (Array.isArray(value)) for (const item of value) stack.push([key, item]);
    else if (typeof value === "object" && value !== null)
      for (const [k, v] of Object.entries(value)) stack.push([k, v]);
  }
  return vocabulary;
}
