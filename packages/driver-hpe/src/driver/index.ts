export { hpeDriverDefinition } from "./definition.js";
export { HpeDriver } from "./hpeDriver.js";
