export { bmcLogService, systemLogService } from "./xccLogServices.js";
