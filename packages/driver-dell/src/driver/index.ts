export { dellDriver } from "./definition.js";
export { DellIdracDriver } from "./dellIdracDriver.js";
