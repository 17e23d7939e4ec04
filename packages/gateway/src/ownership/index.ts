export type {
  ClusterFleet,
  ClusterInstance,
  ClusterSignal,
  HandedOffMessage,
  IngressLease,
  IngressLeases,
  IngressRegistration,
  IngressState,
  IngressWorker,
  InstanceBroadcast,
  OwnershipEvent,
  ReportedRun,
  SessionOwnership,
  UnansweredSession,
} from "@chorus/store";
export { localIngress } from "@chorus/store";
