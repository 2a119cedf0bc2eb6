export { BootOptionNotFoundError } from "./errors.js";
