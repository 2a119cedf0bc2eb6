import { MACHINE_URI_PREFIX } from "./agentCa.js";

/**
 * The machine a verified client certificate names: its SAN URI `spiffe://racksmith/machine/<id>`. Node lists
 * SANs as `URI:…, DNS:…`; undefined when there is none (or several machines, which this CA never signs).
 */
export function machineOfCertificate(subjectAltName: string | undefined): string | undefined {
  if (!subjectAltName) return undefined;
  const machines = subjectAltName
    .split(/,\s*/)
    .filter((entry) => entry.startsWith(`URI:${MACHINE_URI_PREFIX}`))
    .map((entry) => entry.slice(`URI:${MACHINE_URI_PREFIX}`.length));
  return machines.length === 1 && machines[0] ? machines[0] : undefined;
}
