import { BMC_CAPABILITIES } from "@racksmith/core";
import type { DriverNames } from "./names.js";

/** `README.md`: what the package is, how an operator enables it, its capabilities and how to develop it. */
export function readme(names: DriverNames, unsupported: readonly string[], mockup: string): string {
  const rows = BMC_CAPABILITIES.map((capability) =>
    unsupported.includes(capability)
      ? `| \`${capability}\` | no | not supported: \`RedfishStandard\` has no standard way (OEM); override it, then declare it |`
      : `| \`${capability}\` | yes | \`RedfishStandard\` (DMTF standard resources) |`,
  );
  return `# ${names.packageName}

A [Racksmith](https://www.npmjs.com/package/@racksmith/core) BMC driver for **${names.vendor}** servers. It registers
the driver \`${names.name}\`, built on \`RedfishStandard\` from \`@racksmith/core\`.

## Enabling it

Install it beside the \`racksmith\` command (or in the folder of your config) and name it in \`racksmith.yaml\`:

\`\`\`sh
npm install ${names.packageName}
\`\`\`

\`\`\`yaml
plugins:
  - "${names.packageName}"
\`\`\`

\`racksmith drivers list\` shows the driver; \`racksmith redfish --address https://<bmc> detect\` shows whether it
is chosen for a BMC. Detection (\`src/driver.ts\`) scores 60 for a service root whose \`Vendor\` (or an \`Oem\`
key) is "${names.vendor}", 70 when its \`Product\` names the vendor too.

## Capabilities

| capability | declared | implemented by |
| --- | --- | --- |
${rows.join("\n")}

A declared capability must work on the hardware; one that does not must stay undeclared and throw
\`NotSupportedError\`. The conformance suite checks both.

## Developing

\`\`\`sh
npm install
npm run build          # tsc -p . → dist/
npm test               # vitest: the conformance suite on every mockup in mockups/
npm run conformance    # racksmith driver test . --mockup ${mockup} (after a build)
\`\`\`

- \`src/driver.ts\`: the driver class (override what the hardware does differently), detection and the
  declared capabilities; \`src/index.ts\`: the plugin manifest.
- \`${mockup}\`: a generic DMTF mockup with the vendor renamed, a starting point only. Capture your hardware
  with \`racksmith mockup record --address https://<bmc> --username <user> --password-file <file> --out mockups/<model>\`
  and add the folder to \`test/conformance.test.ts\`. Vendor behaviors the mockup server must play out (jobs,
  pending settings, OEM actions) go in a \`./testing\` entry exporting \`conformance\` profiles (see
  \`@racksmith/testkit\`'s README), which \`racksmith driver test\` picks up.
- Releases: \`npx changeset\` records a change; \`npx changeset version\` and \`npx changeset publish\` release it.
  Keep \`peerDependencies["@racksmith/core"]\` naming the core versions you tested: the service refuses a
  plugin whose range excludes the running core.
`;
}
