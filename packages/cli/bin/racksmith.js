#!/usr/bin/env node
// Stable entry point for the `racksmith` bin: it exists before the first build, so npm links it at install.
try {
  await import("../dist/bin.js");
} catch (error) {
  if (error?.code === "ERR_MODULE_NOT_FOUND" && String(error.message).includes("dist/bin.js")) {
    process.stderr.write(
      "racksmith: the CLI is not built yet — run `npm run build` (or `npm start`) first\n",
    );
    process.exitCode = 1;
  } else {
    throw error;
  }
}
