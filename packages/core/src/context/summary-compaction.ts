import type { AgentMessage, AssistantMessage, Message, UserMessage } from "../messages/message-types.js";
import type { StreamContext } from "../stream/stream-fn.js";
import { estimateMessageTokens } from "./token-estimate.js";
import { repairTranscript } from "./transcript-repair.js";

/** The default instructions of the summariser. */
export const DEFAULT_SUMMARY_PROMPT =
  "You are compacting a conversation so it can continue within a limited context window. " +
  "Summarise the conversation below: the user's goals and instructions, decisions made, facts learned, " +
  "files and tools involved with their important results, and what remains to be done. " +
  "Be complete but concise; write only the summary.";

/** Prefix of the user message that replaces the summarised part. */
export const SUMMARY_PREFIX = "Summary of the earlier conversation (older messages were compacted):\n\n";

/** Opens the summariser's request when earlier compactions left their parts: they are context, not conversation. */
const EARLIER_PARTS_HEADER =
  "Earlier parts of this conversation were already summarised; these summaries stay as they are:\n\n";

/**
 * Whether `message` is a compaction part: the summary a compaction put in place of older messages. Seed 002 keeps
 * each as a part of the history that later compactions build on — never summarised again, never removed.
 */
export function isCompactionPart(message: AgentMessage): boolean {
  const m = message as { role?: string; content?: unknown };
  return m.role === "user" && typeof m.content === "string" && m.content.startsWith(SUMMARY_PREFIX);
}

/**
 * How many compaction parts open the transcript and are kept as they are (each compaction adds its own after the
 * earlier ones). Once they together pass `keepRecentTokens` they are no longer kept: the next compaction folds them
 * into one, so a session that compacts for ever still fits its window.
 */
function keptParts(messages: readonly AgentMessage[], keepRecentTokens: number): number {
  let parts = 0;
  let tokens = 0;
  while (parts < messages.length && isCompactionPart(messages[parts] as AgentMessage)) {
    tokens += estimateMessageTokens(messages[parts] as AgentMessage);
    parts++;
  }
  return tokens > keepRecentTokens ? 0 : parts;
}

/**
 * Where to cut so the tail keeps at least `keepRecentTokens`, never between a tool call and its
 * results: the tail starts at a user or assistant message. Returns 0 when nothing can be cut (also when only the
 * compaction parts that open the transcript, kept as they are, are older than the tail).
 */
export function findCompactionCut(messages: readonly AgentMessage[], keepRecentTokens: number): number {
  let tokens = 0;
  let cut = messages.length;
  while (cut > 0 && tokens < keepRecentTokens) {
    cut--;
    tokens += estimateMessageTokens(messages[cut] as AgentMessage);
  }
  // Move the cut back until the tail starts at a message that is not a tool result.
  while (cut > 0 && (messages[cut] as { role: string }).role === "toolResult") cut--;
  return cut <= keptParts(messages, keepRecentTokens) ? 0 : cut;
}

/** What a summary compaction needs. */
export interface SummaryRequest {
  messages: readonly AgentMessage[];
  keepRecentTokens: number;
  convert: (messages: AgentMessage[]) => Message[] | Promise<Message[]>;
  /** Makes the model call (the loop's guarded call: stall detection, abort). */
  complete: (context: StreamContext) => Promise<AssistantMessage>;
  prompt: string;
}

/** The compacted transcript and the summariser's reply (for its usage). */
export type SummaryOutcome =
  | { ok: true; messages: AgentMessage[]; reply: AssistantMessage }
  | { ok: false; error: string; reply?: AssistantMessage };

/**
 * Summarises everything before the recent tail (after the compaction parts that open the transcript, which are kept
 * and given as context) through one StreamFn call and returns [earlier parts…, the new part, …tail], repaired.
 * Contract: never throws; a failed or empty summary is `ok: false`.
 */
export async function summarizeOlderMessages(req: SummaryRequest): Promise<SummaryOutcome> {
  const cut = findCompactionCut(req.messages, req.keepRecentTokens);
  if (cut === 0) return { ok: false, error: "nothing old enough to summarise" };
  // Earlier compaction parts are kept as they are and given as context: the new part summarises only what follows.
  const earlier = req.messages.slice(0, keptParts(req.messages, req.keepRecentTokens));
  const context =
    earlier.length === 0
      ? []
      : [userText(EARLIER_PARTS_HEADER + earlier.map((part) => (part as UserMessage).content).join("\n\n"))];
  const ask = earlier.length === 0 ? "Write the summary now." : "Write the summary of what followed them now.";
  let reply: AssistantMessage;
  try {
    const older = repairTranscript(await req.convert(req.messages.slice(earlier.length, cut)));
    reply = await req.complete({ systemPrompt: req.prompt, messages: [...context, ...older, userText(ask)] });
  } catch (error) {
    return { ok: false, error: `summariser failed: ${(error as Error).message}` };
  }
  if (reply.stopReason === "error" || reply.stopReason === "aborted") {
    return { ok: false, error: `summariser failed: ${reply.errorMessage ?? reply.stopReason}`, reply };
  }
  const text = reply.content
    .filter((c) => c.type === "text")
    .map((c) => c.text)
    .join("")
    .trim();
  if (!text) return { ok: false, error: "summariser returned an empty summary", reply };
  const messages = repairTranscript([
    ...earlier,
    userText(SUMMARY_PREFIX + text),
    ...req.messages.slice(cut),
  ] as AgentMessage[] as {
    role: string;
  }[]) as AgentMessage[];
  return { ok: true, messages, reply };
}

function userText(text: string): UserMessage {
  return { role: "user", content: text, timestamp: Date.now() };
}
