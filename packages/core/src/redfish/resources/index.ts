export { checkResource, type Diagnostic, type DiagnosticSeverity } from "./checkResource.js";
export {
  type FieldImportance,
  type FieldSpec,
  type FieldType,
  RESOURCE_FIELDS,
  type ResourceKind,
} from "./fields.js";
export type * from "./models.js";
