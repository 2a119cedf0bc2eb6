import { FleetCapacityError } from "../errors.js";

/** Hands out the host addresses of an IPv4 network in order, skipping the network and broadcast addresses. */
export class AddressPool {
  private next: number;
  private readonly last: number;

  constructor(readonly cidr: string) {
    const [address = "", prefixText = "32"] = cidr.split("/");
    const prefix = Number(prefixText);
    const base = address.split(".").reduce((value, octet) => value * 256 + Number(octet), 0);
    const size = 2 ** (32 - prefix);
    const network = base - (base % size);
    this.next = network + 1;
    this.last = network + size - 2;
  }

  take(): string {
    if (this.next > this.last) throw new FleetCapacityError(`addresses in ${this.cidr}`);
    const value = this.next++;
    return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join(".");
  }
}
