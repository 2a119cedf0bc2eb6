export { accountServicePatch, NO_LOCKOUT_LOGIN_POLICY } from "./passwordPolicy.js";
