import type {
  JsonObject,
  MockupActionContext,
  MockupBehavior,
  MockupResponse,
  MockupService,
  MockupWriteContext,
} from "@racksmith/testkit";
import { createJob, deleteJobs, type NewJob, queuedBiosJob } from "./mockupJobs.js";
import { bootEffects } from "./mockupReset.js";
import {
  accepted,
  jobCommitted,
  lockedDown,
  methodNotAllowed,
  notInList,
  refused,
  unknownProperty,
} from "./mockupResponses.js";
import {
  BIOS_JOB,
  isLockedDown,
  isObject,
  linkOf,
  managerAttributePaths,
  managerOfSystem,
  readMembers,
  SYSTEM_LOCKDOWN,
  trimPath,
} from "./mockupState.js";

export interface DellMockupOptions {
  /**
   * When configuration jobs run: at the next host reset, as on an iDRAC (default), or at once, for suites
   * that wait for a job to finish before they reboot the host.
   */
  readonly jobsRun?: "onReset" | "atOnce";
  /** Refuse changes while System Lockdown is on, as an iDRAC does (default true). */
  readonly enforceLockdown?: boolean;
}

interface MockupRules {
  readonly runAtOnce: boolean;
  readonly enforceLockdown: boolean;
}

/** Keys of `patch` that are not in `known`: an iDRAC refuses the whole request for one unknown attribute. */
function firstUnknown(patch: JsonObject, known: JsonObject | undefined): string | undefined {
  return Object.keys(patch).find((key) => !known || !(key in known));
}

/** Refusals every BIOS-job-creating change shares: System Lockdown, then a job already committed. */
async function biosChangeRefusal(
  service: MockupService,
  managerPath: string,
  rules: MockupRules,
): Promise<MockupResponse | undefined> {
  if (rules.enforceLockdown && (await isLockedDown(service, managerPath))) return lockedDown();
  if (await queuedBiosJob(service, managerPath)) return jobCommitted();
  return undefined;
}

function biosJob(rules: MockupRules, target: string | null): NewJob {
  return { name: "Configure: BIOS.Setup.1-1", type: BIOS_JOB, target, runAtOnce: rules.runAtOnce };
}

/** PATCH Bios/Settings: stage the values; with `@Redfish.SettingsApplyTime` the iDRAC also creates the job. */
async function patchBiosSettings(
  context: MockupWriteContext,
  rules: MockupRules,
): Promise<MockupResponse | undefined> {
  const { service, request, body, current } = context;
  const attributes = body.Attributes;
  if (!isObject(attributes)) return undefined;
  const settingsPath = trimPath(request.pathname);
  const systemPath = settingsPath.replace(/\/Bios\/Settings$/i, "");
  const managerPath = await managerOfSystem(service, systemPath);
  const refusal = await biosChangeRefusal(service, managerPath, rules);
  if (refusal) return refusal;
  const bios = await service.read(`${systemPath}/Bios`);
  const unknown = firstUnknown(attributes, isObject(bios?.Attributes) ? bios.Attributes : undefined);
  if (unknown) return unknownProperty(unknown);
  const base: JsonObject = current ?? {
    "@odata.id": settingsPath,
    "@odata.type": "#Bios.v1_2_0.Bios",
    Id: "Settings",
    Name: "BIOS Configuration Pending Settings",
    Attributes: {},
  };
  const staged = isObject(base.Attributes) ? base.Attributes : {};
  service.write(settingsPath, { ...base, Attributes: { ...staged, ...attributes } });
  if (body["@Redfish.SettingsApplyTime"] === undefined) return accepted();
  return accepted(await createJob(service, managerPath, biosJob(rules, settingsPath)));
}

/** A boot order sent to the system (or its Settings object) is staged; a BIOS job applies it at boot. */
async function patchBootOrder(
  context: MockupWriteContext,
  rules: MockupRules,
): Promise<MockupResponse | undefined> {
  const { service, request, body } = context;
  const order = isObject(body.Boot) ? body.Boot.BootOrder : undefined;
  if (!Array.isArray(order)) return undefined;
  const systemPath = trimPath(request.pathname).replace(/\/Settings$/i, "");
  const managerPath = await managerOfSystem(service, systemPath);
  const refusal = await biosChangeRefusal(service, managerPath, rules);
  if (refusal) return refusal;
  const boot = (await service.read(systemPath))?.Boot;
  const optionsPath = linkOf(isObject(boot) ? boot.BootOptions : undefined);
  const references = new Set(
    (optionsPath ? await readMembers(service, optionsPath) : []).map((option) =>
      String(option.BootOptionReference),
    ),
  );
  const unknown = order.find((entry) => !references.has(String(entry)));
  if (unknown !== undefined) return notInList(String(unknown), "Boot/BootOrder");
  const pendingPath = `${systemPath}/Settings`;
  const pending = (await service.read(pendingPath)) ?? { "@odata.id": pendingPath, Id: "Settings" };
  service.write(pendingPath, { ...pending, Boot: { BootOrder: order } });
  return accepted(await createJob(service, managerPath, biosJob(rules, null)));
}

/** Manager attributes apply at once and show on both resources that hold them. */
async function patchManagerAttributes(
  context: MockupWriteContext,
  rules: MockupRules,
): Promise<MockupResponse | undefined> {
  const { service, request, body, current } = context;
  const attributes = body.Attributes;
  const path = trimPath(request.pathname);
  const managerPath = path.replace(/\/(Attributes|Oem\/Dell\/DellAttributes\/[^/]+)$/i, "");
  const aliases = managerAttributePaths(managerPath);
  // Other DellAttributes resources (System.Embedded.1, LifecycleController…) keep the built-in merge.
  if (!isObject(attributes) || !aliases.some((alias) => alias.toLowerCase() === path.toLowerCase()))
    return undefined;
  // While locked, only the lockdown itself may change; a request that lifts it may carry other settings.
  const touchesOnlyLockdown = Object.keys(attributes).every((key) => key === SYSTEM_LOCKDOWN);
  const unlocks = attributes[SYSTEM_LOCKDOWN] === "Disabled";
  if (
    rules.enforceLockdown &&
    !touchesOnlyLockdown &&
    !unlocks &&
    (await isLockedDown(service, managerPath))
  ) {
    return lockedDown();
  }
  const unknown = firstUnknown(attributes, isObject(current?.Attributes) ? current.Attributes : undefined);
  if (unknown) return unknownProperty(unknown);
  for (const alias of aliases) await service.merge(alias, { Attributes: attributes });
  return accepted();
}

async function deleteJobQueue(context: MockupActionContext, rules: MockupRules): Promise<MockupResponse> {
  const { service, resourcePath, body } = context;
  const managerPath = trimPath(resourcePath).replace(/\/Oem\/Dell\/DellJobService$/i, "");
  if (rules.enforceLockdown && (await isLockedDown(service, managerPath))) return lockedDown();
  const jobId = typeof body.JobID === "string" ? body.JobID : "";
  if (!jobId) return refused(400, "Base.1.12.ActionParameterMissing", "JobID is required.", "Add JobID.");
  // The iDRAC answers OK and quietly keeps a running job: callers must look at the queue afterwards.
  await deleteJobs(service, managerPath, jobId);
  return accepted();
}

async function clearPendingBios(context: MockupActionContext, rules: MockupRules): Promise<MockupResponse> {
  const { service, resourcePath } = context;
  const settingsPath = trimPath(resourcePath);
  const managerPath = await managerOfSystem(service, settingsPath.replace(/\/Bios\/Settings$/i, ""));
  const refusal = await biosChangeRefusal(service, managerPath, rules);
  if (refusal) return refusal;
  const settings = await service.read(settingsPath);
  if (settings) service.write(settingsPath, { ...settings, Attributes: {} });
  return accepted();
}

async function importSystemConfiguration(
  context: MockupActionContext,
  rules: MockupRules,
): Promise<MockupResponse> {
  const { service, resourcePath } = context;
  return accepted(
    await createJob(service, trimPath(resourcePath), {
      name: "Import Configuration",
      type: "ImportConfiguration",
      runAtOnce: rules.runAtOnce,
    }),
  );
}

/**
 * An iDRAC's side effects for the mockup server: BIOS changes staged in `Bios/Settings` with a configuration
 * job (refused with SYS011 while one is committed), jobs that run at the next host reset (or at once), the job
 * queue and its DeleteJobQueue, manager attributes applied at once on both resources that show them, boot
 * order and HTTP Device 1 applied at boot, one-shot BIOS attributes consumed, System Lockdown enforced,
 * accounts created by filling slots (never by POST).
 */
export function dellMockupBehaviors(options: DellMockupOptions = {}): MockupBehavior[] {
  const rules: MockupRules = {
    runAtOnce: options.jobsRun === "atOnce",
    enforceLockdown: options.enforceLockdown ?? true,
  };
  return [
    {
      name: "dell-idrac",
      patch: {
        "/redfish/v1/Systems/*/Bios/Settings": (context) => patchBiosSettings(context, rules),
        "/redfish/v1/Systems/*": (context) => patchBootOrder(context, rules),
        "/redfish/v1/Systems/*/Settings": (context) => patchBootOrder(context, rules),
        "/redfish/v1/Managers/*/Attributes": (context) => patchManagerAttributes(context, rules),
        "/redfish/v1/Managers/*/Oem/Dell/DellAttributes/*": (context) =>
          patchManagerAttributes(context, rules),
      },
      post: {
        "/redfish/v1/Managers/*/Jobs": async ({ service, request, body }) => {
          const managerPath = trimPath(request.pathname).replace(/\/Jobs$/i, "");
          return createConfigJob(service, managerPath, body, rules);
        },
        "/redfish/v1/Managers/*/Oem/Dell/Jobs": async ({ service, request, body }) => {
          const managerPath = trimPath(request.pathname).replace(/\/Oem\/Dell\/Jobs$/i, "");
          return createConfigJob(service, managerPath, body, rules);
        },
        "/redfish/v1/AccountService/Accounts": () =>
          methodNotAllowed("Accounts cannot be created by POST on this iDRAC: PATCH an empty account slot."),
      },
      actions: {
        "#DellJobService.DeleteJobQueue": (context) => deleteJobQueue(context, rules),
        "#DellManager.ClearPending": (context) => clearPendingBios(context, rules),
        "#OemManager.v1_4_0.OemManager#OemManager.ImportSystemConfiguration": (context) =>
          importSystemConfiguration(context, rules),
      },
      onReset: async ({ service, systemPath, booted }) => {
        if (booted) await bootEffects(service, systemPath, !rules.runAtOnce);
      },
    },
  ];
}

async function createConfigJob(
  service: MockupService,
  managerPath: string,
  body: JsonObject,
  rules: MockupRules,
): Promise<MockupResponse> {
  const target = typeof body.TargetSettingsURI === "string" ? body.TargetSettingsURI : undefined;
  if (!target) return refused(400, "Base.1.12.PropertyMissing", "TargetSettingsURI is required.", "Add it.");
  const refusal = await biosChangeRefusal(service, managerPath, rules);
  if (refusal) return refusal;
  const location = await createJob(service, managerPath, biosJob(rules, target));
  return { ...accepted(location), status: 200 };
}
