import { InvalidArgumentError } from "@racksmith/core";
import { quoted } from "../../api/index.js";
import type { ReleaseIssue } from "../tables.js";

/** What a tenant may report about the host it releases. */
export const RELEASE_ISSUE_CATEGORIES = ["hardware", "performance", "other"] as const;

const MAX_SUMMARY = 4096;

export function parseReleaseIssue(value: unknown, field = "issue"): ReleaseIssue {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new InvalidArgumentError(`${field}: must be an object with category and summary`);
  }
  const { category, summary } = value as Record<string, unknown>;
  if (typeof category !== "string" || !(RELEASE_ISSUE_CATEGORIES as readonly string[]).includes(category)) {
    throw new InvalidArgumentError(
      `${field}.category: ${quoted(category)} is not one of ${RELEASE_ISSUE_CATEGORIES.join(", ")}`,
      { details: { field: `${field}.category` } },
    );
  }
  if (summary !== undefined && typeof summary !== "string") {
    throw new InvalidArgumentError(`${field}.summary: must be a string`, {
      details: { field: `${field}.summary` },
    });
  }
  if (typeof summary === "string" && summary.length > MAX_SUMMARY) {
    throw new InvalidArgumentError(`${field}.summary: longer than ${MAX_SUMMARY} characters`, {
      details: { field: `${field}.summary` },
    });
  }
  return { category, summary: summary ?? "" };
}
