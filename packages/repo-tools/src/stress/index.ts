export type { StressOptions } from "./args.ts";
export { parseStressArgs, UsageError } from "./args.ts";
export type { CpuHog } from "./cpuHog.ts";
export { startCpuHog } from "./cpuHog.ts";
