export { ServiceClient, ServiceError } from "./serviceClient.js";
