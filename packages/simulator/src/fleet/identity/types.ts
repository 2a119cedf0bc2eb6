import type { JsonObject } from "@racksmith/testkit";
import type { MacSpelling } from "./macAddress.js";

/** What makes one machine unique in a mockup: its serials, MACs and UUIDs. */
export type IdentityTokenKind = "serial" | "mac" | "uuid";

/**
 * One identity value of a mockup, canonical: serials trimmed, MACs 12 lower-case hex digits, UUIDs
 * lower-case.
 */
export interface IdentityToken {
  readonly kind: IdentityTokenKind;
  readonly value: string;
}

export type UuidSpelling = "uuidLower" | "uuidUpper";

/** How a token is written at one place of the served documents. */
export type TokenSpelling = "exact" | MacSpelling | UuidSpelling;

/** A spelling of a token that occurs in the mockup's documents, which the rewrite must replace. */
export interface SpelledToken {
  readonly text: string;
  readonly token: number;
  readonly spelling: TokenSpelling;
}

/**
 * A BlueField card a host mockup shows: its serial (the DPU's) and the host-facing port MACs, lowest first.
 */
export interface BluefieldCard {
  readonly serial: number;
  readonly ports: readonly number[];
}

/**
 * A JSON value inside a document that says the BlueField is in DPU mode (`Oem.Nvidia.Mode`, BIOS `NicMode`).
 */
export interface ModeSetting {
  readonly path: string;
  readonly pointer: readonly string[];
}

/** What a DPU mockup says about the card (token indices). */
export interface DpuRoles {
  /** The card's serial: what the host lists for it (`Card1`, else the system's). */
  readonly serial: number;
  /** The host-facing pf0 MAC: `Oem.Nvidia.BaseMAC`, else derived from the `DPU_SYS_IMAGE` base GUID. */
  readonly baseMac: number;
  readonly modeSettings: readonly ModeSetting[];
}

/**
 * The identity of a mockup tree, found once and shared by every virtual BMC serving it: the tokens to
 * rewrite, where they are spelled, and the roles some of them play (token indices into `tokens`).
 */
export interface MockupIdentity {
  readonly tokens: readonly IdentityToken[];
  readonly spellings: readonly SpelledToken[];
  /** The first system's serial (what exploration reports). */
  readonly systemSerial: number | undefined;
  /** The serial of the system's chassis (what expected machines name), else the system's. */
  readonly chassisSerial: number | undefined;
  /** The MAC of the BMC's own network port (the manager interface with an address). */
  readonly managerMac: number | undefined;
  readonly cards: readonly BluefieldCard[];
  readonly dpu: DpuRoles | undefined;
  /** Every system resource (powered off by an anomaly). */
  readonly systemPaths: readonly string[];
  /** True when a resource path holds a token: request paths must then be rewritten back too. */
  readonly pathsHaveTokens: boolean;
}

/** One document of a mockup as the identity scan sees it. */
export interface ScannedDocument {
  readonly path: string;
  readonly body: JsonObject | undefined;
  /** The document as served (JSON compact), where token spellings are looked for. */
  readonly text: string;
}
