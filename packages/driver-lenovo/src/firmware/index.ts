export { dottedVersion, isRestartQuirkSku, restartCutsDpuPower } from "./firmwareVersions.js";
