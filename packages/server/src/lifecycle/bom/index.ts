export { BOM_VALIDATION, type BomValidation, type BomVerdict } from "./bomValidation.js";
