import { defaultServerConditions } from "vite";
import { defineConfig } from "vitest/config";

// Tests import what users import (`@racksmith/core`, …) but resolve it to TypeScript sources through the
// `@racksmith/source` export condition, so no build is needed before `vitest run`.
// Only Vite's own server conditions otherwise: an "import" condition here would reach Node and make CommonJS
// packages (pg → pg-pool) load ESM wrappers through require().
const conditions = ["@racksmith/source", ...defaultServerConditions];

export const baseConfig = defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    environment: "node",
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // A safety net for a stuck test, not a margin: a busy CI machine has taken over 30 s to open and migrate an
    // embedded database inside a test.
    testTimeout: 120_000,
    // A safety net for a hung hook, not a margin: CI runs every package at once on two cores, where opening a
    // migrated PostgreSQL schema has taken over a minute.
    hookTimeout: 180_000,
    pool: "forks",
    // A worker keeps the modules it imported for the next file: re-importing the server, PGlite and the drivers
    // for every file was more than half of the suite's CPU. Files must leave no global state behind.
    isolate: false,
    // Fixture plugin packages live in node_modules folders; transform them like sources so their
    // `@racksmith/core` import resolves to the same (source) module the test uses.
    server: { deps: { inline: [/\/test\/fixtures\//] } },
    // Workspace plugins named in a config load from their sources too (see the plugin loader).
    env: { RACKSMITH_PLUGIN_CONDITIONS: "@racksmith/source" },
    // The JSON report is what `.ci/run`'s summary and `npm run test:stress` read (packages/repo-tools).
    reporters: ["default", ["json", { outputFile: ".test-results/report.json" }]],
  },
});
