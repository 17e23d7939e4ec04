export type {
  HandedOffMessage,
  OwnershipEvent,
  SessionOwnership,
  UnansweredSession,
} from "./session-ownership.js";
