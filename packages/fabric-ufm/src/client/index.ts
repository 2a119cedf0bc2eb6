export {
  UfmClient,
  type UfmClientAuth,
  type UfmClientOptions,
  type UfmPartitionOptions,
  type UfmRawResponse,
  type UfmRequestOptions,
  type UfmTlsOptions,
} from "./ufmClient.js";
export type * from "./wire.js";
