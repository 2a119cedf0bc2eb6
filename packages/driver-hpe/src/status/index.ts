export { type SettingCheck, settingsStatus } from "./settingsStatus.js";
