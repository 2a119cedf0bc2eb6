import { readFile } from "node:fs/promises";
import { Ajv, type ErrorObject } from "ajv";
import { parse as parseYaml } from "yaml";
import { FleetScenarioError, type ScenarioProblem } from "../errors.js";
import { FLEET_SCENARIO_SCHEMA } from "./schema.js";
import type { FleetScenario } from "./types.js";

const validate = new Ajv({ allErrors: true, strict: false }).compile(FLEET_SCENARIO_SCHEMA);

/** Reads a scenario file (YAML or JSON) and checks it; errors name the file and every bad key. */
export async function loadScenarioFile(file: string): Promise<FleetScenario> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new FleetScenarioError(
      [{ key: "(file)", problem: `cannot be read: ${(error as Error).message}` }],
      file,
    );
  }
  return parseScenario(text, file);
}

/** Parses scenario text (YAML, of which JSON is a subset) and checks it. */
export function parseScenario(text: string, file?: string): FleetScenario {
  let value: unknown;
  try {
    value = parseYaml(text);
  } catch (error) {
    const message = (error as Error).message.split("\n")[0] ?? "";
    throw new FleetScenarioError([{ key: "(file)", problem: `is not valid YAML or JSON: ${message}` }], file);
  }
  return checkScenario(value, file);
}

/** Checks a scenario object (from a file or built in code) against the schema and the rules it cannot say. */
export function checkScenario(value: unknown, file?: string): FleetScenario {
  if (!validate(value)) throw new FleetScenarioError(describeErrors(validate.errors ?? []), file);
  const scenario = value as FleetScenario;
  const problems: ScenarioProblem[] = [];
  scenario.hosts.forEach((group, index) => {
    if (!group.model && !group.mockup) {
      problems.push({
        key: `hosts[${index}]`,
        problem: "names no mockup: set model (or mockup, a folder path)",
      });
    }
    if (group.dpu && !group.dpu.model && !group.dpu.mockup) {
      problems.push({
        key: `hosts[${index}].dpu`,
        problem: "names no mockup: set model (or mockup, a folder path)",
      });
    }
    if (group.dpuMode && group.dpuMode !== "no-dpu" && !group.dpu) {
      problems.push({
        key: `hosts[${index}].dpuMode`,
        problem: `is ${group.dpuMode} but the hosts have no dpu`,
      });
    }
  });
  const vendors = new Set(
    scenario.hosts.flatMap((group) => [
      group.vendor,
      ...(group.dpu ? [group.dpu.vendor ?? "nvidia-dpu"] : []),
    ]),
  );
  for (const vendor of Object.keys(scenario.credentials ?? {})) {
    if (!vendors.has(vendor)) {
      problems.push({
        key: `credentials.${vendor}`,
        problem: `no host or DPU is of this vendor (${[...vendors].join(", ")})`,
      });
    }
  }
  const prefix = scenario.addressPool ? Number(scenario.addressPool.split("/")[1]) : 16;
  if (prefix > 30) problems.push({ key: "addressPool", problem: "must be a /30 or larger network" });
  if (problems.length) throw new FleetScenarioError(problems, file);
  return scenario;
}

/** `/hosts/2/count` → `hosts[2].count`. */
function keyPath(instancePath: string): string {
  return instancePath
    .split("/")
    .slice(1)
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), "");
}

const PATTERN_HINTS: Readonly<Record<string, string>> = {
  vendor: "must be lower-case letters, digits, - or _ (dell, nvidia-dpu)",
  addressPool: "must be an IPv4 network in CIDR notation (10.100.0.0/16)",
};

function describeErrors(errors: readonly ErrorObject[]): ScenarioProblem[] {
  const problems = new Map<string, ScenarioProblem>();
  const add = (key: string, problem: string): void => {
    problems.set(`${key}|${problem}`, { key: key || "(top level)", problem });
  };
  for (const error of errors) {
    const at = keyPath(error.instancePath);
    switch (error.keyword) {
      case "additionalProperties": {
        const key = String(error.params.additionalProperty);
        add(at ? `${at}.${key}` : key, "is not a known key");
        break;
      }
      case "required":
        add(at, `needs ${String(error.params.missingProperty)}`);
        break;
      case "enum":
        add(
          at,
          `must be one of ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`,
        );
        break;
      case "type":
        add(at, `must be ${String(error.params.type).replace(",", " or ")}`);
        break;
      case "pattern":
        add(
          at,
          PATTERN_HINTS[
            at
              .split(".")
              .at(-1)
              ?.replace(/\[\d+\]$/, "") ?? ""
          ] ?? `must match ${String(error.params.pattern)}`,
        );
        break;
      case "minimum":
        add(at, `must be at least ${String(error.params.limit)}`);
        break;
      case "minLength":
        add(at, "must not be empty");
        break;
      case "minItems":
        add(at, "must list at least one entry");
        break;
      default:
        add(at, error.message ?? "is invalid");
    }
  }
  return [...problems.values()];
}
