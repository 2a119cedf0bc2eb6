export { detectHpe, HPE_OEM_SCORE, HPE_VENDOR_ONLY_SCORE, ILO_SCORE } from "./detectHpe.js";
