import { randomUUID } from "node:crypto";
import type { AgentMessage, Model, StreamFn } from "@chorus/core";
import type { GatewayLogger, GoalConfig, LaneItem, SessionTurnEnd } from "@chorus/gateway";
import { describeError, isSubagentKey } from "@chorus/gateway";
import type { SessionRecord } from "@chorus/store";
import { turnOutputOf } from "./completion-phrase.js";
import { inferGoal } from "./goal-inference.js";
import type { GoalRecord } from "./goal-record.js";
import { type GoalChange, UNCHANGED } from "./goal-storage.js";
import { inferenceMayChange, inferredGoalChange } from "./inferred-goal-change.js";

/** One inference call may take this long before it counts as failed (it is off the reply path). */
export const GOAL_INFERENCE_TIMEOUT_MS = 30_000;

/** What the inferrer needs from the goal keeper and the gateway. */
export interface GoalInferrerDeps {
  readonly logger: GatewayLogger;
  readonly now: () => number;
  /** The gateway's budgeted StreamFn. */
  readonly streamFn: StreamFn;
  /** Cancels calls under way (the gateway is stopping). */
  readonly stopping: AbortSignal;
  configFor(agentId: string): GoalConfig | undefined;
  /** The session's goal as the keeper holds it. */
  goal(sessionKey: string): Promise<GoalRecord | undefined>;
  update(sessionKey: string, change: (goal: GoalRecord | undefined) => GoalChange): Promise<GoalRecord | undefined>;
  session(sessionKey: string): Promise<SessionRecord | undefined>;
  /** The model the inference asks for a session. */
  model(session: SessionRecord): Model;
  track(work: Promise<unknown>): void;
}

/**
 * Goals from the conversation (seed 002 "Goal Lifecycle", `goals.inferFromConversation`): after each turn that
 * answered a user's message, while the session has no explicit active goal, one small model call reads the message
 * and the reply, and the answer moves the goal through the seed's state machine (`inferredGoalChange`).
 * Contract: fire-and-forget — never delays or blocks a turn; a failed call is logged and changes nothing; a goal
 * command or a reset in the session while a call is under way makes that call's answer void (`/goal` wins).
 */
export class GoalInferrer {
  readonly #deps: GoalInferrerDeps;
  /** Bumped by every goal command and reset of a session: an inference begun before it changes nothing. */
  readonly #epochs = new Map<string, number>();

  constructor(deps: GoalInferrerDeps) {
    this.#deps = deps;
  }

  /** A goal command ran, or the session was reset: inferences under way there are void. */
  invalidate(sessionKey: string): void {
    this.#epochs.set(sessionKey, (this.#epochs.get(sessionKey) ?? 0) + 1);
  }

  /** A turn ended: infers from it in the background when the agent opted in and a user's message was answered. */
  turnEnded(end: SessionTurnEnd): void {
    const config = this.#deps.configFor(end.agentId);
    if (config?.enabled !== true || !config.inferFromConversation || isSubagentKey(end.sessionKey)) return;
    const result = end.result;
    if (result === undefined || result.error !== undefined || result.reason === "aborted") return;
    const userText = userTextOf(end.items);
    if (userText === "") return;
    const reply = turnOutputOf(result.messages).text;
    const work = this.#infer(end.sessionKey, userText, reply).catch((error: unknown) =>
      this.#deps.logger.error({ sessionKey: end.sessionKey, error: describeError(error) }, "goal inference failed"),
    );
    this.#deps.track(work);
  }

  async #infer(sessionKey: string, userText: string, reply: string): Promise<void> {
    const epoch = this.#epochs.get(sessionKey) ?? 0;
    const basis = await this.#deps.goal(sessionKey);
    // An explicit active goal wins: no call is made at all.
    if (!inferenceMayChange(basis)) return;
    const session = await this.#deps.session(sessionKey);
    if (session === undefined) return;
    const outcome = await inferGoal({
      streamFn: this.#deps.streamFn,
      model: this.#deps.model(session),
      sessionKey,
      current: basis?.status === "active" ? basis.text : undefined,
      userText,
      reply,
      timeoutMs: GOAL_INFERENCE_TIMEOUT_MS,
      signal: this.#deps.stopping,
    });
    if (outcome.kind === "cancelled") return;
    if (outcome.kind === "failed") {
      this.#deps.logger.warn({ sessionKey, error: outcome.error }, "goal inference failed");
      return;
    }
    await this.#deps.update(sessionKey, (current) => {
      // The goal moved while the call ran (a command, a reset, a completion phrase): this answer read an older state.
      const moved = current?.id !== basis?.id || current?.status !== basis?.status;
      if (moved || (this.#epochs.get(sessionKey) ?? 0) !== epoch) return UNCHANGED;
      return inferredGoalChange(current, outcome, this.#deps.now(), randomUUID());
    });
  }
}

/** What users said in a turn's items (an autonomous goal's prompt and a sub-agent's result are not theirs). */
function userTextOf(items: readonly LaneItem[]): string {
  return items
    .filter((item) => item.source === "user")
    .map((item) => textOf(item.message))
    .filter((text) => text !== "")
    .join("\n");
}

function textOf(message: AgentMessage): string {
  const content = (message as { content?: unknown }).content;
  if (typeof content === "string") return content.trim();
  if (!Array.isArray(content)) return "";
  return (content as { type?: string; text?: string }[])
    .flatMap((block) => (block.type === "text" && block.text !== undefined ? [block.text] : []))
    .join("\n")
    .trim();
}
