/** `.gitignore`. */
export function gitignore(): string {
  return ["node_modules/", "dist/", "coverage/", "*.tsbuildinfo", "*.log", ""].join("\n");
}

/** `.changeset/config.json`: changesets for a single public package. */
export function changesetConfig(): string {
  const config = {
    $schema: "https://unpkg.com/@changesets/config@3.1.1/schema.json",
    changelog: "@changesets/cli/changelog",
    commit: false,
    fixed: [],
    linked: [],
    access: "public",
    baseBranch: "main",
    updateInternalDependencies: "patch",
    ignore: [],
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}

/** `.changeset/README.md`. */
export function changesetReadme(): string {
  return `# Changesets

Each change that users will see gets a changeset: run \`npx changeset\`, pick the bump (patch, minor, major)
and describe the change. \`npx changeset version\` turns the pending changesets into a version and a
CHANGELOG entry; \`npx changeset publish\` publishes the package. See
https://github.com/changesets/changesets.
`;
}
