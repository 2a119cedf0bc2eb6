import { type BootOptionInfo, BootOptionNotFoundError, type JobRef, moveToFront } from "@racksmith/core";
import { dpuBootOption, httpDeviceName, isHttpDeviceFor } from "../setup/index.js";
import { type JobQueue, jobRefOf } from "./jobQueue.js";
import type { ManagerAttributes } from "./managerAttributes.js";
import type { DellNic, NicInventory } from "./nicInventory.js";
import { settingsObjectOf } from "./oemResources.js";
import type { IdracResources } from "./resources.js";

/** The DPU-first boot order: the UEFI HTTP device bound to the DPU's host port first in the BIOS boot list. */
export class DpuBootOrder {
  constructor(
    private readonly idrac: IdracResources,
    private readonly nics: NicInventory,
    private readonly attributes: ManagerAttributes,
    private readonly jobs: JobQueue,
  ) {}

  /**
   * Moves the DPU's HTTP device to the front. The iDRAC applies a boot order through a BIOS job at the next
   * reboot (newer firmware takes it through the system's Settings object); nothing is sent when it is first.
   */
  async set(mac: string): Promise<JobRef | undefined> {
    const nic = await this.nics.byMac(mac);
    const { order, options } = await this.idrac.bootOrder();
    const option = dpuBootOption(options, nic);
    if (!option) {
      throw new BootOptionNotFoundError(httpDeviceName(nic), {
        hint: "run machine setup with the DPU's MAC and reboot so HTTP Device 1 points at it",
      });
    }
    if (order[0] === option.reference) return undefined;
    const target = settingsObjectOf(await this.idrac.system()) ?? (await this.idrac.systemPath());
    const response = await this.attributes.explain("set boot order", () =>
      this.idrac.client.patch(target, { Boot: { BootOrder: moveToFront(order, option.reference) } }),
    );
    return response.location ? jobRefOf(response.location) : this.jobs.committedBiosJob();
  }

  async isFirst(mac: string): Promise<boolean> {
    return this.firstIsHttpDeviceOf(await this.nics.byMac(mac), await this.firstOption());
  }

  async firstOption(): Promise<BootOptionInfo | undefined> {
    const { order, options } = await this.idrac.bootOrder();
    return options.find((option) => option.reference === order[0]);
  }

  firstIsHttpDeviceOf(nic: DellNic, first: BootOptionInfo | undefined): boolean {
    return first !== undefined && isHttpDeviceFor(first, nic);
  }
}
