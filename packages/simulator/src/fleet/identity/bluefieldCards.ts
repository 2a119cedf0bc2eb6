import { isJsonObject, type JsonObject, linkOf, stringField } from "@racksmith/testkit";
import { memberPaths, type ReadDocument } from "./documentReader.js";
import { macGroupOf } from "./macAddress.js";
import { forEachString, macCandidates } from "./tokenCandidates.js";
import type { ScannedDocument } from "./types.js";

// BlueField part numbers: MBF2…/MBF3… (BF2), 900-9D… (BF3, BF3 SuperNIC, later BF2 SKUs).
const BLUEFIELD_PART = /^(MBF\d|900-9D)/i;
const BLUEFIELD_NAME = /bluefield/i;
const DPU_VENDOR_TEXT = /bluefield|mellanox|nvidia/i;

/** A BlueField card as the host's inventory shows it, before tokens are numbered. */
export interface FoundCard {
  readonly serial: string;
  /** Canonical MACs of its host-facing ports, lowest first. */
  readonly ports: readonly string[];
}

/** True for a NetworkAdapter or PCIeDevice that is a BlueField, by part number or name. */
export function isBluefield(resource: JsonObject): boolean {
  const part = stringField(resource, "PartNumber") ?? stringField(resource, "SKU");
  if (part && BLUEFIELD_PART.test(part.trim())) return true;
  return ["Model", "Name", "Description"].some((key) =>
    BLUEFIELD_NAME.test(stringField(resource, key) ?? ""),
  );
}

function isCardResource(document: ScannedDocument): document is ScannedDocument & { body: JsonObject } {
  const type = stringField(document.body, "@odata.type") ?? "";
  return (
    document.body !== undefined &&
    (/(NetworkAdapter|PCIeDevice)\./.test(type) ||
      /\/(NetworkAdapters|PCIeDevices)\/[^/]+$/i.test(document.path))
  );
}

/**
 * The BlueField cards of a host mockup: NetworkAdapters and PCIeDevices that are BlueFields, one card per
 * serial. A card's ports are the MACs of its adapter's NetworkDeviceFunctions, and the MACs the host prints
 * next to a BlueField/Mellanox/NVIDIA name (boot options, iLO's base adapters); every MAC of the same NIC
 * (same first five bytes) joins them. With several cards, MACs not tied to an adapter go to the cards still
 * without ports, in order.
 */
export function findBluefieldCards(documents: readonly ScannedDocument[], read: ReadDocument): FoundCard[] {
  const serials: string[] = [];
  const adapterMacs = new Map<string, Set<string>>();
  for (const document of documents) {
    if (!isCardResource(document) || !isBluefield(document.body)) continue;
    const serial = stringField(document.body, "SerialNumber")?.trim();
    if (!serial) continue;
    if (!serials.includes(serial)) serials.push(serial);
    const functions = functionMacs(document.body, read);
    if (functions.length)
      adapterMacs.set(serial, new Set([...(adapterMacs.get(serial) ?? []), ...functions]));
  }
  if (serials.length === 0) return [];

  const allMacs = new Set<string>();
  const contextMacs: string[] = [];
  for (const document of documents) {
    if (!document.body) continue;
    forEachString(document.body, (text, key) => {
      const macs = macCandidates(text, key);
      for (const mac of macs) allMacs.add(mac);
      if (DPU_VENDOR_TEXT.test(text)) contextMacs.push(...macs);
    });
    if (isBluefieldObject(document.body)) {
      forEachString(document.body, (text, key) => contextMacs.push(...macCandidates(text, key)));
    }
  }

  const claimed = new Set<string>();
  const groupsOf = (macs: Iterable<string>): Set<string> => new Set([...macs].map(macGroupOf));
  const cardGroups = serials.map((serial) => groupsOf(adapterMacs.get(serial) ?? []));
  for (const groups of cardGroups) for (const group of groups) claimed.add(group);
  const loose = [...groupsOf(contextMacs)].filter((group) => !claimed.has(group));
  const waiting = cardGroups.filter((groups) => groups.size === 0);
  loose.forEach((group, index) => {
    const target = waiting.length === 1 ? waiting[0] : waiting[index];
    target?.add(group);
  });

  return serials.map((serial, index) => ({
    serial,
    ports: [...allMacs].filter((mac) => cardGroups[index]?.has(macGroupOf(mac))).sort(),
  }));
}

function isBluefieldObject(body: JsonObject): boolean {
  return ["Model", "Name"].some((key) => BLUEFIELD_NAME.test(stringField(body, key) ?? ""));
}

function functionMacs(adapter: JsonObject, read: ReadDocument): string[] {
  const macs: string[] = [];
  for (const path of memberPaths(read, linkOf(adapter.NetworkDeviceFunctions))) {
    const ethernet = read(path)?.Ethernet;
    if (!isJsonObject(ethernet)) continue;
    for (const key of ["MACAddress", "PermanentMACAddress"]) {
      const value = stringField(ethernet, key);
      if (value) macs.push(...macCandidates(value, key));
    }
  }
  return macs;
}
