import { type JobRef, NotSupportedError } from "@racksmith/core";
import type { Bios } from "@racksmith/core/redfish";
import { JobNotCreatedError } from "../errors/index.js";
import { clearSetupPasswordProfile } from "../setup/index.js";
import { hasHttpStatus, withoutSecretsInErrors } from "./httpErrors.js";
import { type JobQueue, jobRefOf } from "./jobQueue.js";
import type { ManagerAttributes } from "./managerAttributes.js";
import { oemActionTarget } from "./oemResources.js";
import type { IdracResources } from "./resources.js";

/** Dell names the BIOS setup (UEFI administrator) password `SetupPassword`. */
const SETUP_PASSWORD = "SetupPassword";

/** The BIOS setup password; neither it nor the old one ever appears in an error. */
export class SetupPassword {
  constructor(
    private readonly idrac: IdracResources,
    private readonly attributes: ManagerAttributes,
    private readonly jobs: JobQueue,
  ) {}

  /**
   * Sets (or clears, with "") the password; a configuration job applies it at the next reboot. Bios.ChangePassword
   * cannot clear a password once set (dell/iDRAC-Redfish-Scripting#308): clearing falls back to an SCP import,
   * whose job reboots the host itself.
   */
  async change(currentPassword: string, newPassword: string): Promise<JobRef> {
    const operation = "UEFI password change";
    const bios = await this.idrac.client.get<Bios>(await this.idrac.biosPath());
    const target = (bios.Actions?.["#Bios.ChangePassword"] as { target?: string } | undefined)?.target;
    if (!target)
      throw new NotSupportedError("UEFI password", "the Bios resource has no #Bios.ChangePassword action");
    try {
      await this.attributes.explain(operation, () =>
        withoutSecretsInErrors([currentPassword, newPassword], () =>
          this.idrac.client.post(target, {
            PasswordName: SETUP_PASSWORD,
            OldPassword: currentPassword,
            NewPassword: newPassword,
          }),
        ),
      );
    } catch (error) {
      if (newPassword === "" && hasHttpStatus(error, 400)) return this.clearByImport(currentPassword);
      throw error;
    }
    return this.jobs.createConfigJob(operation, await this.idrac.biosSettingsPath());
  }

  private async clearByImport(currentPassword: string): Promise<JobRef> {
    const manager = await this.idrac.manager();
    const target =
      oemActionTarget(manager, "ImportSystemConfiguration") ??
      `${await this.idrac.managerPath()}/Actions/Oem/EID_674_Manager.ImportSystemConfiguration`;
    const response = await withoutSecretsInErrors([currentPassword], () =>
      this.idrac.client.post(target, {
        ShareParameters: { Target: "BIOS" },
        ImportBuffer: clearSetupPasswordProfile(currentPassword),
        ShutdownType: "Forced",
      }),
    );
    if (!response.location) throw new JobNotCreatedError("UEFI password clear", target);
    return jobRefOf(response.location);
  }
}
