/** BlueField generation: NIC mode, host rshim and BIOS keys differ between them. */
export type BluefieldGeneration = 2 | 3;

/** What the BMC says about the card, any of which may be missing. */
export interface CardFacts {
  systemModel?: string | undefined;
  cardModel?: string | undefined;
  partNumber?: string | undefined;
}

const MODEL = /\bblue\s*field[-\s]?([23])\b/i;

// NVIDIA board part numbers (OPN families) when the model string says nothing; lower-cased prefixes.
const PART_NUMBER_PREFIXES: ReadonlyArray<readonly [string, BluefieldGeneration]> = [
  ["900-9d3b", 3],
  ["900-9d3c", 3],
  ["900-9d3d", 3],
  ["sn37b36732", 3],
  ["mbf3", 3],
  ["900-9d20", 2],
  ["900-9d21", 2],
  ["mbf2", 2],
];

function fromModel(model: string | undefined): BluefieldGeneration | undefined {
  const digit = model ? MODEL.exec(model)?.[1] : undefined;
  return digit === "2" ? 2 : digit === "3" ? 3 : undefined;
}

function fromPartNumber(partNumber: string | undefined): BluefieldGeneration | undefined {
  const normalized = partNumber?.trim().toLowerCase() ?? "";
  return PART_NUMBER_PREFIXES.find(([prefix]) => normalized.startsWith(prefix))?.[1];
}

/** The generation from the system model, else the card model, else the card part number; undefined if unknown. */
export function bluefieldGeneration(facts: CardFacts): BluefieldGeneration | undefined {
  return fromModel(facts.systemModel) ?? fromModel(facts.cardModel) ?? fromPartNumber(facts.partNumber);
}
