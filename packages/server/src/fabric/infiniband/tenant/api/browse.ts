import { InvalidArgumentError } from "@racksmith/core";
import type { InfiniBandCallOptions } from "@racksmith/core/infiniband";
import { quoted } from "../../../../api/index.js";

/** A fabric that offers a raw read-only view (UFM's `browse`). */
export interface BrowsableInfiniBandFabric {
  browse(path: string, options?: InfiniBandCallOptions): Promise<{ status: number; body: unknown }>;
}

export function isBrowsable(fabric: object): fabric is BrowsableInfiniBandFabric {
  return typeof (fabric as Partial<BrowsableInfiniBandFabric>).browse === "function";
}

const BASE = /^\/ufmRest(V3|V2)?(?=\/)/;

/**
 * The UFM path to browse, below the REST base: `/resources/...` (a `/ufmRest…` prefix is dropped, since the
 * fabric picks its base from its auth mode). Only resources can be read; no `..`, no full URL.
 */
export function browsePath(input: unknown): string {
  if (typeof input !== "string" || input.trim() === "")
    throw new InvalidArgumentError("path: must be a UFM path such as /resources/pkeys", {
      details: { field: "path" },
    });
  const path = input.trim().replace(BASE, "");
  const [pathname = ""] = path.split("?");
  if (!pathname.startsWith("/resources") || pathname.split("/").some((part) => part === ".." || part === "."))
    throw new InvalidArgumentError(
      `path: ${quoted(input)} is not allowed: only read-only UFM resources (/ufmRest/resources/…) can be browsed`,
      { details: { field: "path" } },
    );
  return path;
}
