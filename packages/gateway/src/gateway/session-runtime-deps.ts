import type { Channel, SessionChat } from "@chorus/channel";
import type { AgentLoopConfig, Model, StreamFn } from "@chorus/core";
import type { OutboxEntry, SessionOwnership, SessionStore } from "@chorus/store";
import type { ApprovalDesk } from "../approvals/approval-desk.js";
import type { ChatNotices } from "../delivery/chat-notices.js";
import type { GatewayEventBus } from "../events/gateway-event-bus.js";
import type { RunTracker } from "../fleet/run-tracker.js";
import type { FairAdmission } from "../lanes/fair-admission.js";
import type { GatewayLogger } from "../logging/gateway-logger.js";
import type { ReplyMode } from "../reply-manager/reply-manager.js";
import type { GatewayTelemetryOptions } from "../telemetry/telemetry-options.js";
import type { SessionRuntime } from "./session-runtime.js";
import type { TurnStartRetryOptions } from "./turn-start-retry.js";

export type { SessionChat } from "@chorus/channel";

import type { SessionTurnHooks } from "../turn-hooks/session-turn-hooks.js";

export type { SessionTurnEnd, SessionTurnHooks } from "../turn-hooks/session-turn-hooks.js";

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
  /** Hands a commit's outbox entries to the dispatcher; `onFirstChunk` hears when a reply's first chunk arrives. */
  deliver(entries: readonly OutboxEntry[], onFirstChunk?: () => void): void;
  notice(sessionKey: string, chat: SessionChat, text: string): void;
  /** Notices that can be edited later (the compaction status line). Without it, no status line is shown. */
  notices?: Pick<ChatNotices, "post" | "replace">;
  onIdle(runtime: SessionRuntime): void;
  /** Registers work the gateway's `idle()` waits for. */
  track(work: Promise<unknown>): void;
  replyMode: ReplyMode;
  /** How long a turn works before typing shows. */
  typingDelayMs: number;
  turnTimeoutMs: number;
  /** How a turn that could not start because the store did not answer is started again (default: 8 tries). */
  turnStartRetry?: TurnStartRetryOptions;
  maxQueued: number;
  collectDebounceMs: number;
  /** Where tool calls waiting for approval are shown in chat and answered. */
  approvals: ApprovalDesk;
  turnHooks?: SessionTurnHooks;
  /** Which sessions this instance may run turns for (a cluster); absent: all of them, unfenced. */
  ownership?: SessionOwnership;
  /** OpenTelemetry settings (session key hashing, content capture). */
  telemetry?: GatewayTelemetryOptions;
}
