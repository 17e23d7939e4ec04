import {
  CONTEXT_MAX_TOKENS_SETTING,
  effectiveContextWindow,
  LAST_COMPACTION_SETTING,
} from "../compaction/session-context-record.js";
import type { GatewayContext } from "./gateway-context.js";

/** Tokens kept verbatim by /compact. */
const COMPACT_KEEP_RECENT_TOKENS = 4_000;

/**
 * /compact in this process: summarises the session's older messages in its lane (messages arriving meanwhile wait for
 * it), in memory and in the store, through the Agent's compaction — the automatic one's entry: `pre_compact` hooks,
 * the post-compaction steps (subgoal re-insertion…), the recently read files re-attached.
 * Contract: resolves with a sentence for the user; a busy session is not compacted; /stop cancels it, and a stopped or
 * failed compaction stores nothing.
 */
export async function compactHere(ctx: GatewayContext, key: string): Promise<string> {
  const session = await ctx.store.getSession(key);
  if (session === undefined) return "Nothing to compact yet.";
  const runtime = ctx.sessions.runtimeFor(session);
  if (runtime.lane.busy) return "I am working on something; try /compact when I am done.";
  // A lane item: a message arriving during the summary call waits for it instead of racing it.
  return runtime.lane.runExclusive(async () => {
    const agent = await runtime.loadAgent();
    const outcome = await runtime.stoppableCompaction((signal) =>
      agent.compact({ keepRecentTokens: COMPACT_KEEP_RECENT_TOKENS, signal }),
    );
    if (!outcome.ok) {
      return outcome.reason === "aborted"
        ? "Stopped the compaction; the conversation is unchanged."
        : `Nothing was compacted (${outcome.error}).`;
    }
    const { messages: compacted, tokensBefore: before, tokensAfter: after } = outcome;
    const lastCompaction = { before, after, atMs: ctx.now() };
    runtime.lastCompaction = lastCompaction;
    // Messages that arrived during the summary call are stored already; they stay after the fresh start.
    const waiting = runtime.lane.waitingItems().map((item) => item.message);
    await ctx.store.transaction(async (tx) => {
      await tx.resetTranscript(key);
      await tx.appendMessages(key, [...compacted, ...waiting]);
      // Settings are read again here: others (the goal) may have changed since the summary started.
      const settings = (await tx.getSession(key))?.settings ?? session.settings;
      const context = {
        [LAST_COMPACTION_SETTING]: lastCompaction,
        [CONTEXT_MAX_TOKENS_SETTING]: effectiveContextWindow(ctx.options.loop, agent.state.model),
      };
      await tx.updateSession(key, { settings: { ...settings, ...context } });
    });
    return `Compacted the conversation: ~${before} → ~${after} tokens.`;
  });
}
