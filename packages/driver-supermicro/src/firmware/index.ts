export {
  type FirmwareTargetPaths,
  multipartTarget,
  multipartUpdateParameters,
} from "./multipartParameters.js";
export { uploadMultipart } from "./multipartUpload.js";
