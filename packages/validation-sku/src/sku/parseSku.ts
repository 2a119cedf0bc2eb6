import { InvalidArgumentError } from "@racksmith/core/errors";
import type { Sku, SkuCount, SkuCpu, SkuDisk, SkuIbPort } from "./sku.js";

/**
 * A SKU read from a file or a request (`sku create`): every field checked, the error naming the first bad one
 * (`cpus[1].count must be a whole number ≥ 1`). Unknown fields are refused, so a typo is not silently ignored.
 */
export function parseSku(value: unknown): Sku {
  const sku = record(value, "the SKU");
  only(sku, "", [
    "id",
    "schemaVersion",
    "description",
    "chassis",
    "cpus",
    "memoryBytes",
    "gpus",
    "nics",
    "ibPorts",
    "disks",
  ]);
  const chassis = record(sku.chassis, "chassis");
  only(chassis, "chassis.", ["vendor", "model"]);
  return {
    id: text(sku.id, "id"),
    schemaVersion: whole(sku.schemaVersion, "schemaVersion", 1),
    description: sku.description === undefined ? "" : text(sku.description, "description", true),
    chassis: { vendor: text(chassis.vendor, "chassis.vendor"), model: text(chassis.model, "chassis.model") },
    cpus: list(sku.cpus, "cpus", (item, at): SkuCpu => {
      only(item, `${at}.`, ["model", "threads", "count"]);
      return {
        model: text(item.model, `${at}.model`),
        threads: whole(item.threads, `${at}.threads`, 1),
        count: whole(item.count, `${at}.count`, 1),
      };
    }),
    memoryBytes: whole(sku.memoryBytes, "memoryBytes", 0),
    gpus: list(sku.gpus, "gpus", counted),
    nics: list(sku.nics, "nics", counted),
    ibPorts: list(sku.ibPorts, "ibPorts", (item, at): SkuIbPort => {
      only(item, `${at}.`, ["device", "rateGbps", "count"]);
      return {
        device: text(item.device, `${at}.device`),
        rateGbps: whole(item.rateGbps, `${at}.rateGbps`, 0),
        count: whole(item.count, `${at}.count`, 1),
      };
    }),
    disks: list(sku.disks, "disks", (item, at): SkuDisk => {
      only(item, `${at}.`, ["model", "sizeBytes", "count"]);
      return {
        model: text(item.model, `${at}.model`),
        sizeBytes: whole(item.sizeBytes, `${at}.sizeBytes`, 0),
        count: whole(item.count, `${at}.count`, 1),
      };
    }),
  };
}

type Fields = Record<string, unknown>;

function counted(item: Fields, at: string): SkuCount {
  only(item, `${at}.`, ["model", "count"]);
  return { model: text(item.model, `${at}.model`), count: whole(item.count, `${at}.count`, 1) };
}

function invalid(field: string, problem: string): InvalidArgumentError {
  return new InvalidArgumentError(`${field} ${problem}`, { details: { field } });
}

function record(value: unknown, field: string): Fields {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw invalid(field, "must be an object");
  return value as Fields;
}

/** Refuses a key not in `allowed`, named by its path: `prefix` is "" at the top and `gpus[0].` in an item. */
function only(value: Fields, prefix: string, allowed: readonly string[]): void {
  const unknown = Object.keys(value).find((key) => !allowed.includes(key));
  if (unknown !== undefined) throw invalid(`${prefix}${unknown}`, "is not a SKU field");
}

const MAX_TEXT = 256;

function text(value: unknown, field: string, mayBeEmpty = false): string {
  if (typeof value !== "string") throw invalid(field, "must be a string");
  if (!mayBeEmpty && value.trim() === "") throw invalid(field, "must not be empty");
  if (value.length > MAX_TEXT) throw invalid(field, `must be at most ${MAX_TEXT} characters`);
  if (value.includes("\u0000")) throw invalid(field, "must not contain NUL characters");
  return value;
}

function whole(value: unknown, field: string, min: number): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min) {
    throw invalid(field, `must be a whole number ≥ ${min}`);
  }
  return value;
}

function list<T>(value: unknown, field: string, item: (value: Fields, at: string) => T): T[] {
  if (!Array.isArray(value)) throw invalid(field, "must be a list");
  return value.map((entry, i) => item(record(entry, `${field}[${i}]`), `${field}[${i}]`));
}
