export type {
  IngressLease,
  IngressLeases,
  IngressRegistration,
  IngressState,
  IngressWorker,
} from "../channel/ingress-leases.js";
export { localIngress } from "../channel/ingress-leases.js";
export type { InstanceBroadcast } from "../store/instance-broadcast.js";
export type {
  ClusterFleet,
  ClusterInstance,
  ClusterSignal,
  HandedOffMessage,
  OwnershipEvent,
  ReportedRun,
  SessionOwnership,
  UnansweredSession,
} from "../store/session-ownership.js";
