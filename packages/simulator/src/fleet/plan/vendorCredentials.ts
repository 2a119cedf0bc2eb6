import type { VendorCredentials } from "../scenario/index.js";

/**
 * Factory accounts when a scenario names none. Vendors that ship one default password get it (Dell's
 * `calvin`, Lenovo's `PASSW0RD`, the BlueField BMC's `0penBmc`); HPE and Supermicro print a password per
 * server, so each of their BMCs gets its own. Every mockup has a `root` account.
 */
export const DEFAULT_VENDOR_CREDENTIALS: Readonly<Record<string, VendorCredentials>> = {
  dell: { username: "root", password: "calvin" },
  lenovo: { username: "root", password: "PASSW0RD" },
  hpe: { username: "root" },
  supermicro: { username: "root" },
  "nvidia-dpu": { username: "root", password: "0penBmc" },
};

const FALLBACK: VendorCredentials = { username: "root", password: "racksmith" };

export function vendorCredentials(
  vendor: string,
  configured: Readonly<Record<string, VendorCredentials>> | undefined,
): VendorCredentials {
  return configured?.[vendor] ?? DEFAULT_VENDOR_CREDENTIALS[vendor] ?? FALLBACK;
}
