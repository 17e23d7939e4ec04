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
