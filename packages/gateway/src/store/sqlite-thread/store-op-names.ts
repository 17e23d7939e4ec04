import type { StoreOpName } from "./store-thread-messages.js";

/** Every store operation, as a record so that the compiler flags one missing here when `SessionStoreOps` grows. */
const STORE_OPS: Record<StoreOpName, true> = {
  ensureSession: true,
  getSession: true,
  listSessions: true,
  updateSession: true,
  deleteSession: true,
  appendMessages: true,
  readTranscript: true,
  resetTranscript: true,
  startRun: true,
  getRun: true,
  listRuns: true,
  updateRun: true,
  interruptRunningRuns: true,
  recordInboundEvent: true,
  pruneInboundEvents: true,
  enqueueOutbox: true,
  getOutboxEntry: true,
  claimOutboxEntry: true,
  claimDueOutbox: true,
  markOutboxSent: true,
  markOutboxFailed: true,
  listOutbox: true,
  requeueInFlightOutbox: true,
  pruneSentOutbox: true,
  insertPending: true,
  getPending: true,
  listPending: true,
  deletePending: true,
  addApproved: true,
  isApproved: true,
  removeApproved: true,
  storeInboundMessage: true,
  commitTurn: true,
};

/** True for the name of a store operation (and not, say, `close` or `transaction`, which have their own requests). */
export function isStoreOpName(name: string): name is StoreOpName {
  return Object.hasOwn(STORE_OPS, name);
}
