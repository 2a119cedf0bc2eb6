export { createExtensionPoint, type ExtensionPoint, Extensions } from "./extensions.js";
export type { ConfigCheckContext, FeatureContext, FeatureRuntime, ServiceFeature } from "./feature.js";
export { DEFAULT_FEATURES } from "./features.js";
export { formatListenAddress, type ListenAddress, parseListenAddress } from "./listenAddress.js";
export { ListenAddressInUseError, tryListen } from "./listenCheck.js";
export { createServiceLogger } from "./logger.js";
export {
  type RunningService,
  type ServiceOptions,
  type ServiceOverrides,
  startService,
} from "./startService.js";
