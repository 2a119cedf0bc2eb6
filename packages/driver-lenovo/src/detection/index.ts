export { detectLenovoXcc } from "./detectLenovoXcc.js";
