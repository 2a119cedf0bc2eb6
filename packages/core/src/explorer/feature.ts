import type { ServiceFeature } from "../service/feature.js";

/** The site explorer: exploration, pairing and ingestion of BMCs (issue 5). */
export const siteExplorerFeature: ServiceFeature = {
  name: "site-explorer",
  async setup() {
    return {};
  },
};
