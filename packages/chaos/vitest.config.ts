import { mergeConfig } from "vitest/config";
import { baseConfig } from "../../vitest.base.ts";

// Unit tests of the pure parts (mutations, schema values, wire encoding): fast, no service started.
export default mergeConfig(baseConfig, { test: { testTimeout: 10_000 } });
