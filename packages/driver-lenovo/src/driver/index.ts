export { lenovoDriver } from "./definition.js";
export { LenovoXccDriver } from "./lenovoXccDriver.js";
