import type { Model, StreamFn } from "@chorus/core";
import { assistantText, titleFromText } from "@chorus/gateway";
import type { FirstExchange } from "./first-exchange.js";

/**
 * The `purpose` a title call carries: budgets reserve it against the session's agent and book it as `title`.
 * Contract: one of the gateway's `CALL_PURPOSES`.
 */
export const TITLE_PURPOSE = "title";

/**
 * The instruction the title model gets as its system prompt (seed 001 §9: a short title, nothing else).
 * Contract: a title call's `systemPrompt` is exactly this (a scripted model tells title calls apart by it).
 */
export const TITLE_PROMPT =
  "Write a title of at most six words for the conversation below. " +
  "Answer with the title only: no quotes, no punctuation at the end.";

/** Each side of the exchange is cut to this many characters: a title needs the gist, and the call stays cheap. */
const EXCHANGE_CHARS = 2_000;
/** A title is a few words; this caps what the budget reserves for the answer. */
const TITLE_MAX_TOKENS = 64;

/** One title call: which model, through which StreamFn, for which session, abandoned on `signal`. */
export interface TitleCall {
  readonly model: Model;
  /** The gateway's StreamFn (inside the budgets). */
  readonly streamFn: StreamFn;
  readonly sessionKey: string;
  readonly signal: AbortSignal;
}

/**
 * A title for a session from its first exchange: one call without tools, carrying the session key and purpose
 * `title` so budgets reserve it. Resolves with undefined when the model fails, is aborted or answers nothing usable
 * (the session keeps its text title). Contract: never rejects.
 */
export async function writeModelTitle(exchange: FirstExchange, call: TitleCall): Promise<string | undefined> {
  const text =
    `User: ${exchange.userText.slice(0, EXCHANGE_CHARS)}\n\n` +
    `Assistant: ${exchange.replyText.slice(0, EXCHANGE_CHARS)}`;
  try {
    const stream = call.streamFn(
      call.model,
      { systemPrompt: TITLE_PROMPT, messages: [{ role: "user", content: text, timestamp: Date.now() }] },
      { signal: call.signal, sessionId: call.sessionKey, purpose: TITLE_PURPOSE, maxTokens: TITLE_MAX_TOKENS },
    );
    const reply = await stream.result();
    if (reply.stopReason === "error" || reply.stopReason === "aborted") return undefined;
    const line = assistantText(reply).trim().split("\n", 1)[0] ?? "";
    const title = titleFromText(line.replace(/^["'“]+|["'”.]+$/g, ""));
    return title === "Untitled" ? undefined : title;
  } catch {
    return undefined;
  }
}
