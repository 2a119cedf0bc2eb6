import { baseConfig } from "../../vitest.base.ts";

export default baseConfig;
