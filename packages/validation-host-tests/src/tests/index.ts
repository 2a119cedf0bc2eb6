export { BUILT_IN_TESTS } from "./builtInTests.js";
export { judgeOutcome } from "./judgeOutcome.js";
export { parseTest } from "./parseTest.js";
export { selectTests } from "./selectTests.js";
