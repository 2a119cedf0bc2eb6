export { siteExplorerFeature } from "./feature.js";
