import { resolve } from "node:path";
import {
  loadFaults,
  MockupServer,
  REDFISH_RULE_NAMES,
  type RedfishRule,
  recordMockup,
} from "@racksmith/testkit";
import type { Command } from "commander";
import { UsageError } from "../errors.js";
import type { CliIo } from "../io.js";
import { printOutput } from "../output/print.js";
import { type BmcFlags, createClient } from "./redfish/connect.js";
import { addBmcFlags } from "./redfish/index.js";

const DEFAULT_PASSWORD = "racksmith";
const AUTH_MODES = ["none", "basic", "session", "password-change-required"] as const;
type AuthMode = (typeof AUTH_MODES)[number];

/** `--lenient a,b` → the rules; `all` relaxes every one (the pre-strict behavior). */
function lenientRules(raw: string | undefined): { strict: boolean; lenient: RedfishRule[] } {
  if (raw === undefined) return { strict: true, lenient: [] };
  const names = raw
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  if (names.includes("all")) return { strict: false, lenient: [] };
  const unknown = names.filter((name) => !(REDFISH_RULE_NAMES as string[]).includes(name));
  if (unknown.length > 0 || names.length === 0) {
    throw new UsageError(
      `--lenient takes rule names separated by commas, or all; ${unknown.length ? `unknown: ${unknown.join(", ")}; ` : ""}the rules are ${REDFISH_RULE_NAMES.join(", ")}`,
    );
  }
  return { strict: true, lenient: names as RedfishRule[] };
}

function positiveInteger(raw: string | undefined, flag: string, fallback: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0)
    throw new UsageError(`${flag} must be a non-negative integer, got ${JSON.stringify(raw)}`);
  return value;
}

/** `racksmith mockup serve | record` (the catalogue names and describes `mockup`). */
export function defineMockupCommand(mockup: Command, io: CliIo): void {
  mockup
    .command("serve")
    .description("serve a mockup tree as a stateful Redfish BMC")
    .argument("<dir>", "mockup directory (DMTF full or short form)")
    .option("--port <n>", "port to listen on", "8000")
    .option("--host <address>", "address to listen on", "127.0.0.1")
    .option("--tls", "serve HTTPS with a self-signed certificate")
    .option("--auth <mode>", `authentication: ${AUTH_MODES.join(", ")}`, "none")
    .option("--username <name>", "user the mockup accepts", "root")
    .option("--password <password>", "password the mockup accepts", DEFAULT_PASSWORD)
    .option("--faults <file>", "JSON file of fault-injection rules")
    .option(
      "--lenient <rules>",
      `relax Redfish rules of strict mode (comma-separated, or all): ${REDFISH_RULE_NAMES.join(", ")}`,
    )
    .option("--json", "print one JSON line once listening (url, root, auth, strictness) instead of the hints")
    .action(async (dir: string, flags: Record<string, string | boolean | undefined>) => {
      const auth = String(flags.auth) as AuthMode;
      if (!AUTH_MODES.includes(auth))
        throw new UsageError(
          `--auth must be one of ${AUTH_MODES.join(", ")}, got ${JSON.stringify(flags.auth)}`,
        );
      const port = positiveInteger(String(flags.port), "--port", 8000);
      const rules = lenientRules(typeof flags.lenient === "string" ? flags.lenient : undefined);
      const faults = typeof flags.faults === "string" ? await loadFaults(resolve(io.cwd, flags.faults)) : [];
      const server = await MockupServer.start({
        root: resolve(io.cwd, dir),
        host: String(flags.host),
        port,
        tls: Boolean(flags.tls),
        auth,
        credentials: { username: String(flags.username), password: String(flags.password) },
        faults,
        ...rules,
      });
      const mode = !rules.strict
        ? "lenient"
        : rules.lenient.length
          ? `strict but ${rules.lenient.join(", ")}`
          : "strict";
      // The mockup's own default password is printed (it is a fixture); one the user chose is not.
      const password = flags.password === DEFAULT_PASSWORD ? DEFAULT_PASSWORD : "<password>";
      const credentials =
        auth === "none" ? "" : ` --username ${String(flags.username)} --password ${password}`;
      const insecure = flags.tls ? " --insecure" : "";
      if (flags.json) {
        // One line, written once the port is bound: a script reads it to learn the URL (port 0 picks one).
        io.stdout.write(
          `${JSON.stringify({
            url: server.url,
            root: resolve(io.cwd, dir),
            auth,
            tls: Boolean(flags.tls),
            strict: rules.strict,
            lenient: rules.lenient,
            faultRules: faults.length,
            ...(auth === "none" ? {} : { username: String(flags.username) }),
          })}\n`,
        );
        await io.untilStopped();
        await server.stop();
        return;
      }
      io.stdout.write(
        [
          `Serving ${resolve(io.cwd, dir)} at ${server.url} (auth: ${auth}, ${mode}${faults.length ? `, ${faults.length} fault rules` : ""})`,
          "Explore it with:",
          `  racksmith redfish --address ${server.url}${credentials}${insecure} detect`,
          `  racksmith redfish --address ${server.url}${credentials}${insecure} explore`,
          `  racksmith redfish --address ${server.url}${credentials}${insecure} browse /redfish/v1/Systems`,
          "Press Ctrl+C to stop.",
          "",
        ].join("\n"),
      );
      await io.untilStopped();
      await server.stop();
    });

  addBmcFlags(mockup.command("record").description("crawl a live Redfish service into a DMTF mockup tree"))
    .requiredOption("--out <dir>", "directory to write the mockup into")
    .option("--max-depth <n>", "link depth to follow", "12")
    .option("--max-members <n>", "members crawled per collection", "200")
    .option("--max-log-entries <n>", "log entries recorded per log", "20")
    .option("--overwrite", "record into a folder that is not empty, replacing its files")
    .option("--json", "print the summary as JSON")
    .action(async (flags: BmcFlags & Record<string, string | boolean | undefined>) => {
      if (!flags.address) throw new UsageError("--address is required");
      const out = resolve(io.cwd, String(flags.out));
      const limits = {
        maxDepth: positiveInteger(flags.maxDepth as string | undefined, "--max-depth", 12),
        maxMembers: positiveInteger(flags.maxMembers as string | undefined, "--max-members", 200),
        maxLogEntries: positiveInteger(flags.maxLogEntries as string | undefined, "--max-log-entries", 20),
      };
      // The same client as `racksmith redfish`: --auth, --insecure, --ca-file and --timeout mean the same here.
      const client = createClient(io, flags);
      let seen = 0;
      const result = await recordMockup({
        client,
        out,
        overwrite: Boolean(flags.overwrite),
        ...limits,
        onProgress: () => {
          seen++;
          if (io.stderr.isTTY && seen % 25 === 0) io.stderr.write(`\rrecorded ${seen} resources…`);
        },
      }).finally(() => client.close());
      if (io.stderr.isTTY && seen >= 25) io.stderr.write("\n");
      printOutput(
        io,
        {
          kind: "message",
          text: `recorded ${result.resources} resources into ${result.out}${result.errors.length ? ` (${result.errors.length} could not be read)` : ""}`,
          json: result,
        },
        Boolean(flags.json),
      );
    });
}
