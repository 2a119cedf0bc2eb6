import type { SkusHandlers } from "../../api/grpc/generated/racksmith/v1/Skus.js";
import { DEFAULT_LIMITS, type ServiceLimits } from "../../api/index.js";

/** A SKU document of a large host (hundreds of components) as JSON text. */
export const MAX_SKU_DOCUMENT_LENGTH = 256 * 1024;

/** `racksmith.v1.Skus`: ids and names within the defaults; a document up to 256 KiB; up to 1,000 hosts. */
export const SKU_LIMITS: ServiceLimits<SkusHandlers> = {
  ListSkus: DEFAULT_LIMITS,
  GetSku: DEFAULT_LIMITS,
  CreateSku: { maxLength: { documentJson: MAX_SKU_DOCUMENT_LENGTH } },
  DeleteSku: DEFAULT_LIMITS,
  GenerateSku: DEFAULT_LIMITS,
  AssignSku: DEFAULT_LIMITS,
  GetMachineSku: DEFAULT_LIMITS,
  UnassignSku: DEFAULT_LIMITS,
  VerifySku: DEFAULT_LIMITS,
};
