export { detectSupermicro, SUPERMICRO_SCORE } from "./detectSupermicro.js";
