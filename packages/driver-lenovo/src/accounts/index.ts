export {
  XCC_MIN_LOCKOUT_SECONDS,
  XCC_PASSWORDS_NEVER_EXPIRE,
  xccPasswordPolicyPatch,
} from "./xccPasswordPolicy.js";
