import type { Message, UserMessage } from "../../messages/message-types.js";
import type { StreamContext } from "../../stream/stream-fn.js";
import { repairTranscript } from "../transcript-repair.js";

/** The default instructions of the session-memory model. */
export const DEFAULT_SESSION_MEMORY_PROMPT =
  "You keep the running summary of a conversation, so it can later stand in for the messages it covers. " +
  "Update the summary with the new messages: keep the user's goals and instructions, decisions made, facts learned, " +
  "files and tools involved with their important results, and what remains to be done; drop what no longer matters. " +
  "Be complete but concise; write only the updated summary.";

/**
 * The refresh call's request: the previous summary (when there is one) and the messages since, as the model sees
 * them. Incremental: the model never rereads what the previous summary covers. Contract: pure.
 */
export function refreshRequest(prompt: string, previous: string | undefined, since: Message[]): StreamContext {
  const opening =
    previous === undefined
      ? []
      : [userText(`The summary so far (it covers the conversation before the messages below):\n\n${previous}`)];
  const ask =
    previous === undefined ? "Write the summary of the conversation above now." : "Write the updated summary now.";
  return { systemPrompt: prompt, messages: [...opening, ...repairTranscript(since), userText(ask)] };
}

function userText(text: string): UserMessage {
  return { role: "user", content: text, timestamp: Date.now() };
}
