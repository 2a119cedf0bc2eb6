export type { DurationBound } from "./durationBounds.ts";
export { findDurationBounds, isTestSource, looksLikeDuration } from "./durationBounds.ts";
