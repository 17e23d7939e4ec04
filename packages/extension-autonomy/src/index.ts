// Goals, schedules and budgets in the Chorus gateway, as one extension (`autonomyExtension`).
export { type AutonomyExtension, type AutonomyOptions, autonomyExtension } from "./autonomy-extension.js";
export * from "./budgets/index.js";
export { renderUsage } from "./commands/render-usage.js";
export * from "./goals/index.js";
export * from "./schedules/index.js";
