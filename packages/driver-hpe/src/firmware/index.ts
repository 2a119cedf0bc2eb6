export { ILO_UPDATE_JOB_ID, iloUpdateJob, iloUpdateStatus, isIloUpdateJob } from "./iloUpdateJob.js";
