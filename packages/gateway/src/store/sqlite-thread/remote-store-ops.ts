import type { SessionStoreOps } from "../session-store.js";
import type { StoreOpName } from "./store-thread-messages.js";

type Args<K extends StoreOpName> = Parameters<SessionStoreOps[K]>;
type Result<K extends StoreOpName> = ReturnType<SessionStoreOps[K]>;

/**
 * Every store operation, forwarded by name to a store that runs elsewhere (the SQLite store's own thread).
 * Subclasses decide where a call goes (`invoke`): the store's queue, or an open transaction.
 */
export abstract class RemoteStoreOps implements SessionStoreOps {
  /** Sends one call. Contract: resolves or rejects as the remote store's call did. */
  protected abstract invoke<K extends StoreOpName>(method: K, args: Args<K>): Result<K>;

  ensureSession(...args: Args<"ensureSession">): Result<"ensureSession"> {
    return this.invoke("ensureSession", args);
  }
  getSession(...args: Args<"getSession">): Result<"getSession"> {
    return this.invoke("getSession", args);
  }
  listSessions(...args: Args<"listSessions">): Result<"listSessions"> {
    return this.invoke("listSessions", args);
  }
  updateSession(...args: Args<"updateSession">): Result<"updateSession"> {
    return this.invoke("updateSession", args);
  }
  deleteSession(...args: Args<"deleteSession">): Result<"deleteSession"> {
    return this.invoke("deleteSession", args);
  }
  appendMessages(...args: Args<"appendMessages">): Result<"appendMessages"> {
    return this.invoke("appendMessages", args);
  }
  readTranscript(...args: Args<"readTranscript">): Result<"readTranscript"> {
    return this.invoke("readTranscript", args);
  }
  resetTranscript(...args: Args<"resetTranscript">): Result<"resetTranscript"> {
    return this.invoke("resetTranscript", args);
  }
  startRun(...args: Args<"startRun">): Result<"startRun"> {
    return this.invoke("startRun", args);
  }
  getRun(...args: Args<"getRun">): Result<"getRun"> {
    return this.invoke("getRun", args);
  }
  listRuns(...args: Args<"listRuns">): Result<"listRuns"> {
    return this.invoke("listRuns", args);
  }
  updateRun(...args: Args<"updateRun">): Result<"updateRun"> {
    return this.invoke("updateRun", args);
  }
  interruptRunningRuns(...args: Args<"interruptRunningRuns">): Result<"interruptRunningRuns"> {
    return this.invoke("interruptRunningRuns", args);
  }
  recordInboundEvent(...args: Args<"recordInboundEvent">): Result<"recordInboundEvent"> {
    return this.invoke("recordInboundEvent", args);
  }
  pruneInboundEvents(...args: Args<"pruneInboundEvents">): Result<"pruneInboundEvents"> {
    return this.invoke("pruneInboundEvents", args);
  }
  enqueueOutbox(...args: Args<"enqueueOutbox">): Result<"enqueueOutbox"> {
    return this.invoke("enqueueOutbox", args);
  }
  getOutboxEntry(...args: Args<"getOutboxEntry">): Result<"getOutboxEntry"> {
    return this.invoke("getOutboxEntry", args);
  }
  claimOutboxEntry(...args: Args<"claimOutboxEntry">): Result<"claimOutboxEntry"> {
    return this.invoke("claimOutboxEntry", args);
  }
  claimDueOutbox(...args: Args<"claimDueOutbox">): Result<"claimDueOutbox"> {
    return this.invoke("claimDueOutbox", args);
  }
  markOutboxSent(...args: Args<"markOutboxSent">): Result<"markOutboxSent"> {
    return this.invoke("markOutboxSent", args);
  }
  markOutboxFailed(...args: Args<"markOutboxFailed">): Result<"markOutboxFailed"> {
    return this.invoke("markOutboxFailed", args);
  }
  listOutbox(...args: Args<"listOutbox">): Result<"listOutbox"> {
    return this.invoke("listOutbox", args);
  }
  requeueInFlightOutbox(...args: Args<"requeueInFlightOutbox">): Result<"requeueInFlightOutbox"> {
    return this.invoke("requeueInFlightOutbox", args);
  }
  pruneSentOutbox(...args: Args<"pruneSentOutbox">): Result<"pruneSentOutbox"> {
    return this.invoke("pruneSentOutbox", args);
  }
  insertPending(...args: Args<"insertPending">): Result<"insertPending"> {
    return this.invoke("insertPending", args);
  }
  getPending(...args: Args<"getPending">): Result<"getPending"> {
    return this.invoke("getPending", args);
  }
  listPending(...args: Args<"listPending">): Result<"listPending"> {
    return this.invoke("listPending", args);
  }
  deletePending(...args: Args<"deletePending">): Result<"deletePending"> {
    return this.invoke("deletePending", args);
  }
  addApproved(...args: Args<"addApproved">): Result<"addApproved"> {
    return this.invoke("addApproved", args);
  }
  isApproved(...args: Args<"isApproved">): Result<"isApproved"> {
    return this.invoke("isApproved", args);
  }
  removeApproved(...args: Args<"removeApproved">): Result<"removeApproved"> {
    return this.invoke("removeApproved", args);
  }
  storeInboundMessage(...args: Args<"storeInboundMessage">): Result<"storeInboundMessage"> {
    return this.invoke("storeInboundMessage", args);
  }
  commitTurn(...args: Args<"commitTurn">): Result<"commitTurn"> {
    return this.invoke("commitTurn", args);
  }
}
