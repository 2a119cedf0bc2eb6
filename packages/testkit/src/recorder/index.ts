/** The mockup recorder: captures a live Redfish service into a DMTF mockup tree the mockup server can serve. */
export {
  RecorderAuthenticationError,
  RecorderOutputNotEmptyError,
  RecorderServiceRootError,
} from "./errors.js";
export {
  type RecordedError,
  type RecordMockupOptions,
  type RecordProgress,
  type RecordResult,
  recordMockup,
} from "./recordMockup.js";
