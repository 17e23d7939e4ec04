import type { AgentLoopConfig, Model, StreamFn } from "@chorus/core";
import type { ApprovalDesk } from "../approvals/approval-desk.js";
import type { Channel, SendTarget } from "../channel/channel-types.js";
import type { GatewayEventBus } from "../events/gateway-event-bus.js";
import type { RunTracker } from "../fleet/run-tracker.js";
import type { FairAdmission } from "../lanes/fair-admission.js";
import type { SessionOwnership } from "../ownership/session-ownership.js";
import type { ReplyMode } from "../reply-manager/reply-manager.js";
import type { SessionStore } from "../store/session-store.js";
import type { OutboxEntry } from "../store/store-types.js";
import type { GatewayLogger } from "./gateway-logger.js";
import type { SessionRuntime } from "./session-runtime.js";

/** Where a session's replies go. */
export interface SessionChat {
  readonly channel: string;
  readonly accountId: string;
  readonly target: SendTarget;
}

/** What a session runtime needs from its gateway. */
export interface SessionRuntimeDeps {
  store: SessionStore;
  events: GatewayEventBus;
  runs: RunTracker;
  logger: GatewayLogger;
  now: () => number;
  admission: FairAdmission;
  streamFn: StreamFn;
  loop: Omit<Partial<AgentLoopConfig>, "model" | "streamFn" | "tools" | "run" | "preDispatchPolicies"> | undefined;
  resolveModel(id: string): Model | undefined;
  channelFor(channel: string, accountId: string): Channel | undefined;
  deliver(entries: readonly OutboxEntry[]): void;
  notice(sessionKey: string, chat: SessionChat, text: string): void;
  onIdle(runtime: SessionRuntime): void;
  /** Registers work the gateway's `idle()` waits for. */
  track(work: Promise<unknown>): void;
  replyMode: ReplyMode;
  /** How long a turn works before typing shows. */
  typingDelayMs: number;
  turnTimeoutMs: number;
  maxQueued: number;
  collectDebounceMs: number;
  /** Where tool calls waiting for approval are shown in chat and answered. */
  approvals: ApprovalDesk;
  /** Which sessions this instance may run turns for (a cluster); absent: all of them, unfenced. */
  ownership?: SessionOwnership;
}
