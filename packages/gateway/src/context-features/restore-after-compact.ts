import { type AgentMessage, type ContextRestorationConfig, withRestoredFiles } from "@chorus/core";

/**
 * `/compact`'s context restoration (seed 004, as after an automatic summary): the session's recently read files
 * re-attached to the compacted transcript. Contract: never throws; the transcript as given when there is nothing to
 * attach or the source fails.
 */
export async function restoreAfterCompact(
  restoration: ContextRestorationConfig | undefined,
  sessionKey: string,
  messages: AgentMessage[],
): Promise<AgentMessage[]> {
  const run = { runId: `compact:${sessionKey}`, depth: 0, sessionId: sessionKey };
  return (await withRestoredFiles(restoration, run, messages)).messages;
}
