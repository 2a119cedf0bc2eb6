export { ERROR_CODES, type ErrorCode } from "./codes.js";
export { InvalidArgumentError, NotSupportedError } from "./common.js";
export {
  hasErrorCode,
  isNotSupported,
  isRacksmithError,
  RacksmithError,
  type RacksmithErrorOptions,
  toRacksmithError,
} from "./racksmithError.js";
export { formatSchemaErrors, keyPath } from "./schemaErrors.js";
export { type ErrorStatus, GRPC_CODE_BY_ERROR_STATUS, HTTP_STATUS_BY_ERROR_STATUS } from "./status.js";
