import { createHash } from "node:crypto";
import { FleetCapacityError } from "../errors.js";
import { macGroupOf, ouiOf } from "./macAddress.js";
import type { MockupIdentity } from "./types.js";

const SERIAL_SUFFIX = 6;
const NUMERIC_SUFFIX = 8;
const MIDDLES_PER_OUI = 0x10000;

/**
 * Hands out the new identity values of a fleet, deterministically from a seed and unique across the fleet:
 * serials keep the original's length and prefix and end in a counter; MACs keep their vendor's OUI and last
 * byte and get a new middle per NIC; UUIDs and passwords are derived from the seed.
 */
export class IdentityAllocator {
  private serials: number;
  private readonly middles = new Map<string, { next: number; used: number }>();
  private derived = 0;

  constructor(private readonly seed: string) {
    this.serials = hashNumber(`${seed}:serials`) % 36 ** 4;
  }

  /**
   * A new serial in the original's style: its prefix and length (`MT2301X00101` → `MT2301` + six counter
   * digits; a serial of seven characters or fewer keeps its first one). Serials of one length share the
   * prefix length, so distinct counters make distinct serials.
   */
  serial(original: string): string {
    const numeric = /^\d+$/.test(original);
    const width = numeric ? NUMERIC_SUFFIX : SERIAL_SUFFIX;
    const n = this.serials++;
    const suffix = (numeric ? (n % 10 ** width).toString(10) : (n % 36 ** width).toString(36))
      .padStart(width, "0")
      .toUpperCase();
    const styled = /[a-z]/.test(original) && !/[A-Z]/.test(original) ? suffix.toLowerCase() : suffix;
    // At least one character of the original stays, so short serials keep their look but not their value.
    return `${original.slice(0, Math.max(1, original.length - width))}${styled}`;
  }

  /** Two new middle bytes (4 hex digits) for a NIC of this OUI. */
  macMiddle(oui: string): string {
    let counter = this.middles.get(oui);
    if (!counter) {
      counter = { next: hashNumber(`${this.seed}:oui:${oui}`) % MIDDLES_PER_OUI, used: 0 };
      this.middles.set(oui, counter);
    }
    if (counter.used >= MIDDLES_PER_OUI) throw new FleetCapacityError(`MACs for the OUI ${oui}`);
    const middle = counter.next;
    counter.next = (counter.next + 1) % MIDDLES_PER_OUI;
    counter.used++;
    return middle.toString(16).padStart(4, "0");
  }

  /** A UUID (version 4 layout, lower-case). */
  uuid(): string {
    const hex = this.derive("uuid").slice(0, 32).split("");
    hex[12] = "4";
    hex[16] = ((Number.parseInt(hex[16] ?? "0", 16) & 0x3) | 0x8).toString(16);
    const text = hex.join("");
    return `${text.slice(0, 8)}-${text.slice(8, 12)}-${text.slice(12, 16)}-${text.slice(16, 20)}-${text.slice(20)}`;
  }

  /** A factory-style password: 12 letters and digits. */
  password(): string {
    return Buffer.from(this.derive("password"), "hex")
      .toString("base64url")
      .replace(/[-_]/g, "x")
      .slice(0, 12);
  }

  /**
   * New values for every token of a mockup (same order as `identity.tokens`): `explicit` values first (the
   * BMC MAC, a host's DPU serials and port MACs), the rest allocated; MACs of one NIC move together.
   */
  assign(identity: MockupIdentity, explicit: ReadonlyMap<number, string> = new Map()): string[] {
    const groups = new Map<string, string>();
    return identity.tokens.map((token, index) => {
      const given = explicit.get(index);
      if (given !== undefined) return given;
      if (token.kind === "uuid") return this.uuid();
      // A new value never equals the original, so no served document can still show the tree's.
      if (token.kind === "serial") return this.differentFrom(token.value, () => this.serial(token.value));
      const group = macGroupOf(token.value);
      let rewritten = groups.get(group);
      if (!rewritten) {
        const oui = ouiOf(group);
        rewritten = this.differentFrom(group, () => `${oui}${this.macMiddle(oui)}`);
        groups.set(group, rewritten);
      }
      return `${rewritten}${token.value.slice(10)}`;
    });
  }

  private differentFrom(original: string, next: () => string): string {
    let value = next();
    while (value === original) value = next();
    return value;
  }

  private derive(purpose: string): string {
    return createHash("sha256")
      .update(`${this.seed}:${purpose}:${this.derived++}`)
      .digest("hex");
  }
}

function hashNumber(text: string): number {
  return createHash("sha256").update(text).digest().readUInt32BE(0);
}
