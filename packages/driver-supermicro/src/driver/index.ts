export { SupermicroDriver } from "./supermicroDriver.js";
