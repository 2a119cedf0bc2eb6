export { DETECTION_SCORE, detectBluefield } from "./detectBluefield.js";
