import type { Migration } from "./migration.js";

/** Explored endpoints, their reports and findings, managed hosts and DPUs (issue 5). */
export const siteExplorer: Migration = {
  name: "0003_site_explorer",
  statements: [],
};
