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
