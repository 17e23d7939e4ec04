export type { InstanceBroadcast } from "./instance-broadcast.js";
export type {
  HandedOffMessage,
  OwnershipEvent,
  SessionOwnership,
  UnansweredSession,
} from "./session-ownership.js";
