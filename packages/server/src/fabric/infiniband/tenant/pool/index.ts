export { allocatePkey, describeRanges } from "./allocatePkey.js";
