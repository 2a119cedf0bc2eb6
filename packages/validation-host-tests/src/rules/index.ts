export { hostTestRules } from "./hostTestRules.js";
