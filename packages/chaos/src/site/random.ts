/** A seeded PRNG (mulberry32): a chaos run's choices repeat with its seed, printed in its log. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A seed for this run: `RACKSMITH_CHAOS_SEED` when set (to replay one), else a random one. */
export function runSeed(): number {
  const given = Number(process.env.RACKSMITH_CHAOS_SEED);
  return Number.isInteger(given) && given > 0 ? given : Math.floor(Math.random() * 2 ** 31) + 1;
}
