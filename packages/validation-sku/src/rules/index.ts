export { skuRules } from "./skuRules.js";
