import type { AgentLoopConfig, AgentMessage, AgentRunResult, AnyAgentTool, Model, StreamFn } from "@chorus/core";
import type { ApprovalDesk } from "../approvals/approval-desk.js";
import type { Channel, SendTarget } from "../channel/channel-types.js";
import type { GatewayEventBus } from "../events/gateway-event-bus.js";
import type { RunTracker } from "../fleet/run-tracker.js";
import type { FairAdmission } from "../lanes/fair-admission.js";
import type { LaneItem } from "../lanes/lane-item.js";
import type { SessionOwnership } from "../ownership/session-ownership.js";
import type { CommitSideWrites } from "../reply-manager/commit-side-writes.js";
import type { ReplyMode } from "../reply-manager/reply-manager.js";
import type { SessionStore } from "../store/session-store.js";
import type { OutboxEntry } from "../store/store-types.js";
import type { GatewayTelemetryOptions } from "../telemetry/telemetry-options.js";
import type { ChatNotices } from "./chat-notices.js";
import type { GatewayLogger } from "./gateway-logger.js";
import type { SessionRuntime } from "./session-runtime.js";
import type { TurnStartRetryOptions } from "./turn-start-retry.js";

/** Where a session's replies go. */
export interface SessionChat {
  readonly channel: string;
  readonly accountId: string;
  readonly target: SendTarget;
}

/** How a turn ended, for the turn hooks. `result` is undefined for a turn that could not start or a dropped item. */
export interface SessionTurnEnd {
  readonly sessionKey: string;
  readonly agentId: string;
  readonly chat: SessionChat;
  readonly items: readonly LaneItem[];
  readonly result: AgentRunResult | undefined;
}

/** What else happens around each turn (the goals: `{current_goal}` in the system prompt, completion, drivers). */
export interface SessionTurnHooks {
  /** The system prompt of the session's next turn from the agent's own; undefined keeps it as it is. */
  systemPromptFor(
    session: { key: string; agentId: string },
    base: string | undefined,
    items: readonly LaneItem[],
  ): Promise<string | undefined>;
  /** The tools offered in the session's next turn, from the agent's own (long-term memory's off switch); undefined keeps them. */
  toolsFor?(sessionKey: string, tools: readonly AnyAgentTool[]): readonly AnyAgentTool[] | undefined;
  /** A turn started on these items (its run is registered). Contract: must not throw. */
  turnStarted(start: { readonly sessionKey: string; readonly items: readonly LaneItem[] }): void;
  /** Called once per turn, after its commit. Contract: must not throw. */
  turnEnded(end: SessionTurnEnd): void;
  /** Writes to join a commit of the session's turn (long-term memory's facts), given its messages. */
  sideWritesFor?(sessionKey: string, messages: readonly AgentMessage[]): CommitSideWrites | undefined;
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
