export type { TrustTier } from "@chorus/store";
export { BotLoopBrake } from "./bot-loop-brake.js";
export {
  decideInbound,
  type IgnoreReason,
  type InboundDecision,
  type InboundPolicyContext,
  trustTierOf,
} from "./decide-inbound.js";
export { OneTimeHints } from "./one-time-hints.js";
export * from "./pairing/index.js";
