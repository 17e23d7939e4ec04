// Plan mode in the Chorus gateway, as an extension (`planModeExtension`).
export { planModeExtension } from "./plan-mode-extension.js";
export { PLAN_MODE_COMMAND_PERMISSIONS } from "./plan-mode-permissions.js";
export {
  PLAN_MODE_EXIT_REMINDER,
  PLAN_MODE_FULL_REMINDER,
  PLAN_MODE_REMINDER_CADENCE,
  PLAN_MODE_SPARSE_REMINDER,
} from "./plan-mode-reminder.js";
export { PLAN_MODE_SYSTEM_PROMPT } from "./plan-mode-request.js";
export { PLAN_MODE_SETTING } from "./stored-plan-mode.js";
