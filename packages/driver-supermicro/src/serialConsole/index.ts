export { serialConsoleStatusOf } from "./serialConsoleStatus.js";
