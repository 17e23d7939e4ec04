import { defaultConvertToLlm } from "../context/convert-to-llm.js";
import { microCompact } from "../context/micro-compaction.js";
import { DEFAULT_SUMMARY_PROMPT, summarizeOlderMessages } from "../context/summary-compaction.js";
import { estimateTokens } from "../context/token-estimate.js";
import { repairTranscript } from "../context/transcript-repair.js";
import type { AgentMessage } from "../messages/message-types.js";
import { addUsage } from "../messages/usage.js";
import type { StreamContext } from "../stream/stream-fn.js";
import type { RunState } from "./run-state.js";

const DEFAULT_RESERVE = 20_000;
const DEFAULT_BLOCKING_RESERVE = 13_000;
const DEFAULT_KEEP_RECENT_TOKENS = 20_000;

/** A request ready to send, or the reason the run must end instead. */
export type PreparedRequest = { ok: true; context: StreamContext } | { ok: false; error: string };

/** The token limits in force for the current model. */
export function contextLimits(state: RunState): { window: number; compactAt: number; ceiling: number } {
  const c = state.config.context;
  const window = c?.window ?? state.model.contextWindow;
  const reserve = c?.reserve ?? DEFAULT_RESERVE;
  const blocking = c?.blockingReserve ?? Math.min(DEFAULT_BLOCKING_RESERVE, reserve);
  return { window, compactAt: window - reserve, ceiling: window - blocking };
}

/**
 * Everything before a model call (seed 000's order, with seed 004's compaction tiers):
 * micro-compaction, summarising compaction past window − reserve, the async and sync
 * transforms, convertToLlm, transcript repair, and the hard ceiling check.
 */
export async function prepareRequest(state: RunState): Promise<PreparedRequest> {
  const { config } = state;
  const micro = config.context?.microCompaction;
  if (micro?.enabled !== false) {
    const compacted = microCompact(state.messages, micro);
    if (compacted) {
      const before = estimateTokens(state.messages, state.systemPrompt);
      replaceTranscript(state, compacted.messages);
      state.emit({
        type: "compaction",
        kind: "micro",
        tokensBefore: before,
        tokensAfter: estimateTokens(state.messages, state.systemPrompt),
        messages: state.messages,
      });
    }
  }
  const limits = contextLimits(state);
  let transcriptTokens = estimateTokens(state.messages, state.systemPrompt);
  if (transcriptTokens > limits.compactAt && (await summarize(state))) {
    transcriptTokens = estimateTokens(state.messages, state.systemPrompt);
  }

  let view: AgentMessage[] = state.messages;
  if (config.asyncTransformContext) view = await config.asyncTransformContext(view, state.signal);
  if (config.transformContext) view = config.transformContext(view);
  const converted = config.convertToLlm ? await config.convertToLlm(view) : defaultConvertToLlm(view);
  const messages = repairTranscript(converted);
  const estimate = messages === state.messages ? transcriptTokens : estimateTokens(messages, state.systemPrompt);
  if (estimate > limits.ceiling) {
    return {
      ok: false,
      error:
        `The conversation is too large to send: about ${estimate} tokens, over the limit of ${limits.ceiling} ` +
        `(context window ${limits.window}); compaction could not reduce it enough.`,
    };
  }
  const context: StreamContext = { messages };
  if (state.systemPrompt !== undefined) context.systemPrompt = state.systemPrompt;
  if (state.llmTools) context.tools = state.llmTools;
  return { ok: true, context };
}

/**
 * Summarises older messages into one (emits `compaction`). Contract: never throws; false when
 * compaction is off, there is nothing to summarise, or the summariser failed.
 */
export async function summarize(state: RunState): Promise<boolean> {
  const cfg = state.config.context?.compaction;
  if (cfg?.enabled === false) return false;
  const before = estimateTokens(state.messages, state.systemPrompt);
  const model = cfg?.model ?? state.model;
  const apiKey = state.config.getApiKey ? await state.config.getApiKey(model.provider) : undefined;
  const outcome = await summarizeOlderMessages({
    messages: state.messages,
    keepRecentTokens: cfg?.keepRecentTokens ?? DEFAULT_KEEP_RECENT_TOKENS,
    convert: state.config.convertToLlm ?? defaultConvertToLlm,
    streamFn: cfg?.streamFn ?? state.config.streamFn,
    model,
    apiKey,
    prompt: cfg?.summaryPrompt ?? DEFAULT_SUMMARY_PROMPT,
    signal: state.signal,
  });
  if (outcome.reply) addUsage(state.usage, outcome.reply.usage);
  if (!outcome.ok) return false;
  replaceTranscript(state, outcome.messages);
  state.emit({
    type: "compaction",
    kind: "summary",
    tokensBefore: before,
    tokensAfter: estimateTokens(state.messages, state.systemPrompt),
    messages: state.messages,
  });
  return true;
}

/**
 * Swaps in a compacted transcript. The run's list of added messages is left as it was: it records
 * what the run added; the `compaction` event carries the compacted transcript.
 */
function replaceTranscript(state: RunState, messages: AgentMessage[]): void {
  state.messages = messages;
}
