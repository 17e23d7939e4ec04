// Plan mode in the Chorus gateway, as an extension (`planModeExtension`).
export { planModeExtension } from "./plan-mode-extension.js";
export { PLAN_MODE_COMMAND_PERMISSIONS } from "./plan-mode-permissions.js";
