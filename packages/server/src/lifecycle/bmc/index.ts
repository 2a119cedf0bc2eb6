export {
  type BmcAccess,
  type BmcAccessOptions,
  type BmcSession,
  createBmcAccess,
  type LifecycleBmc,
} from "./bmcSession.js";
export { createDriverWithCachedProbe, SERVICE_PROBE_TTL_MS, ServiceProbeCache } from "./serviceProbeCache.js";
