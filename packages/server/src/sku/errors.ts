import { RacksmithError } from "@racksmith/core";
import { excerpt } from "../api/index.js";

/** Any SKU call that needs the rules while no loaded plugin registers them. */
export class SkuRulesNotLoadedError extends RacksmithError {
  constructor() {
    super(
      "sku_rules_not_loaded",
      "FAILED_PRECONDITION",
      "no loaded plugin registers SKU rules: add @racksmith/validation-sku (or another SKU plugin) to plugins",
    );
  }
}

export class SkuNotFoundError extends RacksmithError {
  constructor(readonly skuId: string) {
    super("sku_not_found", "NOT_FOUND", `no SKU ${excerpt(skuId)}`, { details: { skuId } });
  }
}

export class SkuExistsError extends RacksmithError {
  constructor(readonly skuId: string) {
    super(
      "sku_exists",
      "ALREADY_EXISTS",
      `SKU ${excerpt(skuId)} exists already: delete it first (racksmith sku delete) or give the new one another id`,
      { details: { skuId } },
    );
  }
}

export class SkuInUseError extends RacksmithError {
  constructor(
    readonly skuId: string,
    readonly hostIds: readonly string[],
  ) {
    super(
      "sku_in_use",
      "FAILED_PRECONDITION",
      `SKU ${skuId} is assigned to ${hostIds.length} host(s) (${hostIds.slice(0, 10).join(", ")}${hostIds.length > 10 ? ", …" : ""}); unassign them first (racksmith sku unassign)`,
      { details: { skuId, hostIds: [...hostIds] } },
    );
  }
}

export class SkuVerifyNotAllowedError extends RacksmithError {
  constructor(
    readonly hostId: string,
    readonly state: string,
  ) {
    super(
      "sku_verify_not_allowed",
      "FAILED_PRECONDITION",
      `host ${hostId} is ${state}: its SKU is verified on Ready hosts and hosts in BOM validation only (an assigned host is verified after its cleanup)`,
      { details: { hostId, state } },
    );
  }
}

export class InventoryNotReportedError extends RacksmithError {
  constructor(readonly hostId: string) {
    super(
      "inventory_not_reported",
      "FAILED_PRECONDITION",
      `host ${hostId} has no inventory yet: its host agent reports one when it discovers the host`,
      { details: { hostId } },
    );
  }
}
