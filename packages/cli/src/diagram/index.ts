export { renderMermaid } from "./mermaid.js";
export { renderSvg } from "./svg.js";
