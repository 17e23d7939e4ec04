import {
  DEFAULT_SUMMARY_PROMPT,
  defaultConvertToLlm,
  estimateTokens,
  finishCompaction,
  summarizeOlderMessages,
} from "@chorus/core";
import { restoreAfterCompact } from "../context-features/restore-after-compact.js";
import type { GatewayContext } from "./gateway-context.js";

/** Tokens kept verbatim by /compact. */
const COMPACT_KEEP_RECENT_TOKENS = 4_000;

/**
 * /compact in this process: summarises the session's older messages in its lane (messages arriving meanwhile wait for
 * it), in memory and in the store. Contract: resolves with a sentence for the user; a busy session is not compacted.
 */
export async function compactHere(ctx: GatewayContext, key: string): Promise<string> {
  const session = await ctx.store.getSession(key);
  if (session === undefined) return "Nothing to compact yet.";
  const runtime = ctx.sessions.runtimeFor(session);
  if (runtime.lane.busy) return "I am working on something; try /compact when I am done.";
  // A lane item: a message arriving during the summary call waits for it instead of racing it.
  return runtime.lane.runExclusive(async () => {
    const agent = await runtime.loadAgent();
    const before = estimateTokens(agent.state.messages);
    const outcome = await summarizeOlderMessages({
      messages: agent.state.messages,
      keepRecentTokens: COMPACT_KEEP_RECENT_TOKENS,
      convert: defaultConvertToLlm,
      complete: (context) => ctx.options.streamFn(runtime.model, context).result(),
      prompt: DEFAULT_SUMMARY_PROMPT,
    });
    if (!outcome.ok) return `Nothing was compacted (${outcome.error}).`;
    const restoration = ctx.agents.get(session.agentId)?.loopFeatures.context?.restoration;
    // The same post-compaction steps as the loop's (subgoal re-insertion…), then the orphaned tool_result strip; then
    // the recently read files re-attached to the summary.
    const compacted = await restoreAfterCompact(
      restoration,
      key,
      finishCompaction(agent.state.messages, outcome.messages, runtime.compactionSteps),
    );
    agent.replaceMessages(compacted);
    const after = estimateTokens(compacted);
    runtime.lastCompaction = { before, after };
    // Messages that arrived during the summary call are stored already; they stay after the fresh start.
    const waiting = runtime.lane.waitingItems().map((item) => item.message);
    await ctx.store.transaction(async (tx) => {
      await tx.resetTranscript(key);
      await tx.appendMessages(key, [...compacted, ...waiting]);
      // Settings are read again here: others (the goal) may have changed since the summary started.
      const settings = (await tx.getSession(key))?.settings ?? session.settings;
      await tx.updateSession(key, { settings: { ...settings, lastCompaction: { before, after } } });
    });
    return `Compacted the conversation: ~${before} → ~${after} tokens.`;
  });
}
