export {
  canonicalAttributeName,
  matchingAttributeKeys,
  type ResolvedAttributes,
  resolveAttributeKeys,
} from "./attributeNames.js";
export { BiosStaging } from "./biosStaging.js";
export {
  inCurrentSpelling,
  MACHINE_SETUP_ATTRIBUTES,
  machineSetupAttributes,
} from "./machineSetupAttributes.js";
