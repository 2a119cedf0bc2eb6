export { runDoctor } from "./runDoctor.js";
export type { DoctorCheck, DoctorOptions, DoctorStatus } from "./types.js";
