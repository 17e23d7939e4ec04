import type { AgentMessage } from "@chorus/core";
import { assistantText, userInputText } from "@chorus/gateway";
import type { TranscriptEntry } from "@chorus/store";

/** A session's first exchange: what its first user message said and what the reply said. */
export interface FirstExchange {
  readonly userText: string;
  readonly replyText: string;
}

/**
 * The session's first exchange when the turn that just completed (it added `added`) is its first answered one: the
 * stored transcript holds no assistant message but the turn's own. Undefined otherwise, or when either side has no
 * text. Contract: pure.
 * @example firstExchangeOf(await store.readTranscript(key, { fromSeq: 1 }), turn.result.messages)
 */
export function firstExchangeOf(
  transcript: readonly TranscriptEntry[],
  added: readonly AgentMessage[],
): FirstExchange | undefined {
  const isAssistant = (message: AgentMessage) => (message as { role?: string }).role === "assistant";
  const repliesOfTurn = added.filter(isAssistant);
  const repliesStored = transcript.filter((entry) => isAssistant(entry.message)).length;
  if (repliesOfTurn.length === 0 || repliesStored > repliesOfTurn.length) return undefined;
  const firstUser = transcript.find((entry) => (entry.message as { role?: string }).role === "user");
  const userText = firstUser === undefined ? "" : userInputText([firstUser.message]).trim();
  const replyText = repliesOfTurn.map(assistantText).join("\n").trim();
  return userText === "" || replyText === "" ? undefined : { userText, replyText };
}
