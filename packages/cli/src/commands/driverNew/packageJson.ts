import type { DriverNames } from "./names.js";
import { type ScaffoldVersions, TOOL_VERSIONS } from "./versions.js";

/** `package.json`: an ESM package exporting its built plugin, with `@racksmith/core` as a peer. */
export function packageJson(names: DriverNames, versions: ScaffoldVersions, mockup: string): string {
  const manifest = {
    name: names.packageName,
    version: "0.1.0",
    description: `Racksmith BMC driver for ${names.vendor}`,
    keywords: ["racksmith", "racksmith-plugin", "redfish", "bmc", names.name],
    type: "module",
    license: "Apache-2.0",
    engines: { node: ">=20.19" },
    exports: {
      ".": { types: "./dist/index.d.ts", default: "./dist/index.js" },
      "./package.json": "./package.json",
    },
    files: ["dist", "src", "mockups", "README.md"],
    scripts: {
      build: "tsc -p .",
      test: "vitest run",
      conformance: `racksmith driver test . --mockup ${mockup}`,
      changeset: "changeset",
      prepack: "npm run build",
    },
    peerDependencies: { "@racksmith/core": versions.core },
    devDependencies: {
      "@changesets/cli": TOOL_VERSIONS["@changesets/cli"],
      "@racksmith/cli": versions.cli,
      "@racksmith/core": versions.core,
      "@racksmith/testkit": versions.testkit,
      "@types/node": TOOL_VERSIONS["@types/node"],
      typescript: TOOL_VERSIONS.typescript,
      vitest: TOOL_VERSIONS.vitest,
    },
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/** `tsconfig.json`: `tsc -p .` builds `src/` into `dist/` (tests run from sources under vitest). */
export function tsconfigJson(): string {
  const config = {
    compilerOptions: {
      target: "ES2022",
      lib: ["ES2023"],
      module: "NodeNext",
      moduleResolution: "NodeNext",
      strict: true,
      noImplicitOverride: true,
      noUncheckedIndexedAccess: true,
      verbatimModuleSyntax: true,
      isolatedModules: true,
      skipLibCheck: true,
      declaration: true,
      sourceMap: true,
      types: ["node"],
      rootDir: "src",
      outDir: "dist",
    },
    include: ["src"],
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}
