import type { InstanceRow } from "../instances/index.js";
import type { Step } from "../machine/step.js";

/** Each configured fabric's reasons the instance's section is not applied yet, prefixed with its name. */
export async function fabricsNotSynced(step: Step, instance: InstanceRow): Promise<string[]> {
  const target = {
    hostId: step.host.id,
    instanceId: instance.id,
    tenantOrg: instance.tenant_org,
    config: instance.config,
    configVersion: instance.config_version,
  };
  const problems = await Promise.all(
    step.fabrics.map(async (fabric) =>
      (await fabric.syncProblems(target)).map((problem) => `${fabric.name}: ${problem}`),
    ),
  );
  return problems.flat();
}

/** Each configured fabric's reasons the released host is still in tenant partitions. */
export async function fabricsNotReleased(step: Step, instanceId: string): Promise<string[]> {
  const host = { hostId: step.host.id, instanceId };
  const problems = await Promise.all(
    step.fabrics.map(async (fabric) =>
      (await fabric.releaseProblems(host)).map((problem) => `${fabric.name}: ${problem}`),
    ),
  );
  return problems.flat();
}
