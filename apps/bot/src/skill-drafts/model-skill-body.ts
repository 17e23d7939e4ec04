import type { Model, StreamFn } from "@chorus/core";
import { assistantText } from "@chorus/gateway";
import { withoutFrontMatter } from "./skill-draft-markdown.js";
import type { TurnSteps } from "./turn-steps.js";

/** The `purpose` a draft call carries: budgets reserve it against the session's agent and book it as `skill_draft`. */
export const SKILL_DRAFT_PURPOSE = "skill_draft";

/**
 * The drafting model's instruction. Contract: a draft call's `systemPrompt` is exactly this (a scripted model tells
 * draft calls apart by it).
 */
export const SKILL_DRAFT_PROMPT =
  "An assistant did the task below successfully three times in a row. Write reusable instructions for doing it " +
  "again: a `# title`, a `## When to use` paragraph, then `## Steps` as a numbered list naming the tools to call. " +
  "Answer with that Markdown only: no front matter, no preamble.";

/** The steps' text sent to the model is cut to this many characters: the call stays cheap. */
const STEPS_CHARS = 6_000;
/** A draft is a page at most; this caps what the budget reserves for the answer. */
const DRAFT_MAX_TOKENS = 800;

/** One draft call: which model, through which StreamFn (the gateway's, inside the budgets), for which session. */
export interface DraftCall {
  readonly model: Model;
  readonly streamFn: StreamFn;
  readonly sessionKey: string;
  readonly signal: AbortSignal;
}

/**
 * A skill body written by the model from a turn's steps: one call without tools, carrying the session key and purpose
 * `skill_draft` so budgets reserve it. Contract: never rejects; undefined when the call fails, is aborted or refused
 * by a budget, or answers nothing (the caller then uses the template).
 */
export async function modelSkillBody(steps: TurnSteps, call: DraftCall): Promise<string | undefined> {
  const text = [
    `Request: ${steps.request}`,
    "Tool calls, in order:",
    ...(steps.toolCalls.length === 0 ? ["(none)"] : steps.toolCalls.map((c) => `- ${c.name} ${c.arguments}`)),
    `Final answer: ${steps.reply}`,
  ]
    .join("\n")
    .slice(0, STEPS_CHARS);
  try {
    const stream = call.streamFn(
      call.model,
      { systemPrompt: SKILL_DRAFT_PROMPT, messages: [{ role: "user", content: text, timestamp: Date.now() }] },
      { signal: call.signal, sessionId: call.sessionKey, purpose: SKILL_DRAFT_PURPOSE, maxTokens: DRAFT_MAX_TOKENS },
    );
    const reply = await stream.result();
    if (reply.stopReason === "error" || reply.stopReason === "aborted") return undefined;
    const body = withoutFrontMatter(assistantText(reply));
    return body === "" ? undefined : body;
  } catch {
    return undefined;
  }
}
