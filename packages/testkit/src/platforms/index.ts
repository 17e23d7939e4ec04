// Fake chat-platform servers speaking the real wire protocols.

export * from "./discord/index.js";
export type { CallPredicate, RecordedCall } from "./shared/call-log.js";
export { CallWaitError } from "./shared/call-log.js";
export type { Delivery } from "./shared/delivery.js";
export type { FaultSpec } from "./shared/fault-plan.js";
export { DISCORD_STRANGER, SLACK_STRANGER, TELEGRAM_STRANGER } from "./shared/strangers.js";
export * from "./slack/index.js";
export * from "./telegram/index.js";
