import { configDefaults, defineConfig } from "vitest/config";
import { baseConfig } from "../../vitest.base.ts";

// engine.test.ts replaces two engine modules with spies (vi.mock): it runs in a fresh module graph of its own,
// since a worker that shares modules between files (isolate: false) may have loaded the real ones already.
const MOCKING = ["src/state/engine.test.ts"];
const base = baseConfig.test ?? {};

export default defineConfig({
  ...baseConfig,
  test: {
    reporters: base.reporters,
    projects: [
      { ...baseConfig, test: { ...base, name: "core", exclude: [...configDefaults.exclude, ...MOCKING] } },
      { ...baseConfig, test: { ...base, name: "core-isolated", include: MOCKING, isolate: true } },
    ],
  },
});
