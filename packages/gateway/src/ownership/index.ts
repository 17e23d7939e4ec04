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
  ClusterFleet,
  ClusterInstance,
  ClusterRequest,
  ClusterSignal,
  HandedOffMessage,
  OwnershipEvent,
  ReportedRun,
  SessionOwnership,
  UnansweredSession,
} from "./session-ownership.js";
