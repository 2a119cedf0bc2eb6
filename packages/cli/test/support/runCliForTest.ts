export {
  type CliRun,
  memoryIo,
  runCliInMemory as cli,
  runCliJson as cliJson,
} from "../../src/inMemory.js";
