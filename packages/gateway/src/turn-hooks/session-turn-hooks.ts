import type { SessionChat } from "@chorus/channel";
import type { AgentMessage, AgentRunResult, AnyAgentTool } from "@chorus/core";
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
  /** Writes to join a commit of the session's turn (long-term memory's facts), given its messages. */
  sideWritesFor?(sessionKey: string, messages: readonly AgentMessage[]): CommitSideWrites | undefined;
}
