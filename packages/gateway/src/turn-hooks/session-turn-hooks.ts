import type { SessionChat } from "@chorus/channel";
import type {
  AgentEvent,
  AgentMessage,
  AgentRunResult,
  AnyAgentTool,
  ContextConfig,
  Model,
  ReminderSource,
} from "@chorus/core";
import type { LaneItem } from "../lanes/lane-item.js";
import type { CommitSideWrites } from "../reply-manager/commit-side-writes.js";

/** How a turn ended, for the turn hooks. `result` is undefined for a turn that could not start or a dropped item. */
export interface SessionTurnEnd {
  readonly sessionKey: string;
  readonly agentId: string;
  readonly chat: SessionChat;
  readonly items: readonly LaneItem[];
  readonly result: AgentRunResult | undefined;
}

/** The session whose Agent the gateway is building (a first message, or after idle, restart or takeover). */
export interface SessionAgentStart {
  readonly sessionKey: string;
  readonly agentId: string;
  /** The session's stored settings (a JSON object), e.g. what an extension kept with it last time. */
  readonly settings: Readonly<Record<string, unknown>>;
  /** The model the session's turns use now. */
  model(): Model;
}

/** What an extension adds to one session's Agent; every part is optional. */
export interface SessionAgentParts {
  /** Wraps the session's context settings (after the gateway's and the agent's layers), in extension order. */
  context?(context: ContextConfig): ContextConfig;
  /** Reminder sources added to the agent's own (the loop's reminder pipeline, before each model call). */
  readonly reminders?: readonly ReminderSource[];
  /** Tools added to this session's Agent (still under the agent's tool policy and trust tiers). */
  readonly tools?: readonly AnyAgentTool[];
  /** Each event of the session's Agent with its transcript at that moment. Contract: returns at once, never throws. */
  onEvent?(event: AgentEvent, messages: readonly AgentMessage[]): void;
  /** The session's Agent is let go (idle, /new, the gateway's stop, ownership lost). */
  release?(): void;
}

/** What else happens around each turn (the extensions: system prompt rewrites and additions, tools, commit writes). */
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
  turnStarted(start: {
    readonly sessionKey: string;
    readonly agentId: string;
    readonly items: readonly LaneItem[];
  }): void;
  /** Called once per turn, after its commit. Contract: must not throw. */
  turnEnded(end: SessionTurnEnd): void;
  /** What the extensions add to a session's Agent as it is built. Contract: a throwing extension adds nothing. */
  sessionAgent?(start: SessionAgentStart): readonly SessionAgentParts[];
  /** Writes to join a commit of the session's turn (long-term memory's facts), given its messages. */
  sideWritesFor?(sessionKey: string, messages: readonly AgentMessage[]): CommitSideWrites | undefined;
}
