export { detectIdrac } from "./detectIdrac.js";
