import type { UserMessage } from "@chorus/core";
import type { SubagentResultPayload } from "../delivery/outbox-payloads.js";

/**
 * The message a background sub-agent's result becomes in its parent session: a user-role message (the model must
 * read it as new input) that says plainly where it came from.
 * Contract: pure apart from the timestamp.
 */
export function subagentResultMessage(result: SubagentResultPayload, now: number): UserMessage {
  const name = result.label === undefined ? result.agent : `${result.agent} (${result.label})`;
  const body = result.text.trim() === "" ? "(no answer)" : result.text;
  return {
    role: "user",
    content: `[Background sub-agent ${name}, run ${result.childRunId}, finished: ${result.status}]\n\n${body}`,
    timestamp: now,
  };
}
