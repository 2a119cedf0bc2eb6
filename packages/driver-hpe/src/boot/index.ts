export {
  type BootEntryKind,
  bootEntryKind,
  dpuBootSource,
  isHttpIpv4BootFor,
  KINDS_FOR,
  reorderBootEntries,
} from "./bootEntries.js";
