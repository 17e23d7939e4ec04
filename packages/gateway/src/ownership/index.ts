export type {
  IngressLease,
  IngressLeases,
  IngressRegistration,
  IngressState,
  IngressWorker,
} from "./ingress-leases.js";
export { localIngress } from "./ingress-leases.js";
export type { InstanceBroadcast } from "./instance-broadcast.js";
export type {
  HandedOffMessage,
  OwnershipEvent,
  SessionOwnership,
  UnansweredSession,
} from "./session-ownership.js";
