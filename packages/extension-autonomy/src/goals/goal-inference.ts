import type { Model, StreamFn } from "@chorus/core";
import { z } from "zod";

/** What the goal inference answers: a goal the user stated (or none), and whether the current goal is achieved. */
export const goalInferenceAnswerSchema = z.strictObject({
  goal: z.string().nullable(),
  completed: z.boolean(),
});

/** One read of a turn: the answer, or why there is none (`cancelled`: the gateway is stopping). */
export type GoalInferenceOutcome =
  | {
      readonly kind: "answer";
      /** The goal the user's latest message states, different from the current one; undefined for none. */
      readonly goal: string | undefined;
      /** Whether the agent's reply shows the current goal achieved. */
      readonly completed: boolean;
    }
  | { readonly kind: "failed"; readonly error: string }
  | { readonly kind: "cancelled" };

/** One turn to read. */
export interface GoalInferenceRequest {
  readonly streamFn: StreamFn;
  readonly model: Model;
  /** The session the call is booked against (its `sessionId`), as kind `goal_inference`. */
  readonly sessionKey: string;
  /** The inferred goal being worked on; undefined when none is (Idle or Completed). */
  readonly current: string | undefined;
  /** What the user said in the turn. */
  readonly userText: string;
  /** The agent's final reply of the turn. */
  readonly reply: string;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}

/** Marks the inference's call, for logs and for scripted models in tests. */
export const GOAL_INFERENCE_SYSTEM_PROMPT =
  "You track the goal a user pursues in a conversation with an assistant. Read the current goal, the user's latest " +
  "message and the assistant's reply. Answer with one JSON object and nothing else: " +
  '{"goal": "<the task or objective the user\'s message asks to get done, in at most 15 words>" or null, ' +
  '"completed": true|false}. "goal" is null for greetings, small talk, a plain question, or the current goal again. ' +
  '"completed" is true only when the reply shows the current goal achieved.';

/** A goal is one line of at most this many characters (it may go into a system prompt's `{current_goal}`). */
export const MAX_INFERRED_GOAL_CHARS = 200;
/** How much of the user's message and of the reply the call reads. */
const MAX_EXCERPT_CHARS = 2_000;

/**
 * Asks a model whether the turn states a goal and whether the current one is achieved: one small call through the
 * (budgeted) StreamFn with the session's key and purpose `goal_inference`, bounded by `timeoutMs`.
 * Contract: never rejects; a provider error, a refused budget, a timeout or an answer that is not the JSON asked for
 * resolves `failed` with a sentence for logs; a call cancelled through `signal` resolves `cancelled`.
 *
 * @example
 * const outcome = await inferGoal({ streamFn, model, sessionKey, current: undefined, userText, reply, timeoutMs: 20_000 });
 * if (outcome.kind === "answer" && outcome.goal !== undefined) console.log("the user wants:", outcome.goal);
 */
export async function inferGoal(request: GoalInferenceRequest): Promise<GoalInferenceOutcome> {
  const cancelled = (): boolean => request.signal?.aborted === true;
  if (cancelled()) return { kind: "cancelled" };
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), request.timeoutMs);
  const cancel = (): void => controller.abort();
  request.signal?.addEventListener("abort", cancel, { once: true });
  try {
    const content =
      `Current goal: ${request.current ?? "(none)"}\n\n` +
      `User's latest message:\n${clip(request.userText)}\n\nAssistant's reply:\n${clip(request.reply)}`;
    const message = await request
      .streamFn(
        request.model,
        { systemPrompt: GOAL_INFERENCE_SYSTEM_PROMPT, messages: [{ role: "user", content, timestamp: Date.now() }] },
        // Reserved and booked against the session's agent as kind `goal_inference`.
        { signal: controller.signal, sessionId: request.sessionKey, purpose: "goal_inference" },
      )
      .result();
    if (message.stopReason === "error" || message.stopReason === "aborted") {
      if (cancelled()) return { kind: "cancelled" };
      if (controller.signal.aborted) return { kind: "failed", error: `no answer within ${request.timeoutMs} ms` };
      return { kind: "failed", error: `${message.error?.kind ?? "unknown"}: ${message.errorMessage ?? "failed"}` };
    }
    const text = message.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("");
    return parseGoalInference(text);
  } catch (error) {
    if (cancelled()) return { kind: "cancelled" };
    return { kind: "failed", error: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
    request.signal?.removeEventListener("abort", cancel);
  }
}

/**
 * The answer in an inference's text (a JSON object, possibly fenced). The goal is made one line of at most
 * `MAX_INFERRED_GOAL_CHARS`; an empty one is none. Contract: `failed` when the text is not the JSON asked for.
 */
export function parseGoalInference(text: string): GoalInferenceOutcome {
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  if (start < 0 || end < start) return { kind: "failed", error: "the goal inference did not answer with JSON" };
  let json: unknown;
  try {
    json = JSON.parse(text.slice(start, end + 1));
  } catch {
    return { kind: "failed", error: "the goal inference's answer is not valid JSON" };
  }
  const parsed = goalInferenceAnswerSchema.safeParse(json);
  if (!parsed.success) return { kind: "failed", error: "the goal inference's answer lacks goal or completed" };
  const goal = (parsed.data.goal ?? "").replace(/\s+/g, " ").trim().slice(0, MAX_INFERRED_GOAL_CHARS).trim();
  return { kind: "answer", goal: goal === "" ? undefined : goal, completed: parsed.data.completed };
}

function clip(text: string): string {
  return text.length <= MAX_EXCERPT_CHARS ? text : `${text.slice(0, MAX_EXCERPT_CHARS)}…`;
}
