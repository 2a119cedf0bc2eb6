export { KEY_BYTES } from "./cipher.js";
export {
  CredentialCorruptError,
  CredentialFileError,
  CredentialKeyExistsError,
  CredentialKeyInvalidError,
  CredentialKeyMissingError,
  CredentialPermissionsError,
  CredentialReadOnlyError,
} from "./errors.js";
export {
  type CredentialStoreStatus,
  FileCredentialStore,
  type FileCredentialStoreOptions,
} from "./fileCredentialStore.js";
export { formatMode, isPrivateMode, modeProblem, privateModeFix } from "./fileModes.js";
export {
  credentialKeyId,
  describeCredentialKey,
  normalizeCredentialKey,
  parseCredentialKeyId,
} from "./keys.js";
export { MemoryCredentialStore } from "./memoryCredentialStore.js";
export {
  type CredentialEntry,
  type MountedSecret,
  openSiteCredentialStore,
  SiteCredentialStore,
} from "./siteCredentialStore.js";
