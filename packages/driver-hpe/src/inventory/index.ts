export { mergeAdapters, toBaseAdapterInfo } from "./baseNetworkAdapters.js";
