export {
  type IngressLease,
  type IngressLeases,
  type IngressRegistration,
  type IngressState,
  type IngressWorker,
  localIngress,
} from "@chorus/channel";
export type {
  ClusterFleet,
  ClusterInstance,
  ClusterSignal,
  HandedOffMessage,
  InstanceBroadcast,
  OwnershipEvent,
  ReportedRun,
  SessionOwnership,
  UnansweredSession,
} from "@chorus/store";
