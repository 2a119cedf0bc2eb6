import { fileURLToPath } from "node:url";

/** The package's own mockups, by the model each one is, relative to the package folder. */
export const MOCKUP_FOLDERS = {
  "PowerEdge R750": "mockups/poweredge-r750",
  "PowerEdge XE9680": "mockups/poweredge-xe9680",
} as const;

export type MockupModel = keyof typeof MOCKUP_FOLDERS;
export const MOCKUP_MODELS = Object.keys(MOCKUP_FOLDERS) as MockupModel[];

export function mockupPath(model: MockupModel): string {
  return fileURLToPath(new URL(`../../${MOCKUP_FOLDERS[model]}`, import.meta.url));
}

export const R750 = mockupPath("PowerEdge R750");
export const XE9680 = mockupPath("PowerEdge XE9680");

/** The DPU host ports (BlueField-2 in slot 5 of the R750, BlueField-3 in slot 31 of the XE9680). */
export const DPU_MAC = { R750: "B8:3F:D2:AA:10:01", XE9680: "58:A2:E1:C4:31:01" } as const;
