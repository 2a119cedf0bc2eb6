import { createHash } from "node:crypto";

/** A seeded pseudo-random source (mulberry32): the same seed always makes the same choices. */
export function seededRandom(seed: string): () => number {
  let state = createHash("sha256").update(seed).digest().readUInt32BE(0);
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** The indices 0..n-1 in a seeded random order (Fisher–Yates). */
export function shuffledIndices(n: number, random: () => number): number[] {
  const order = Array.from({ length: n }, (_, index) => index);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j] as number, order[i] as number];
  }
  return order;
}
