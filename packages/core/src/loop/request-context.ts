import { finishCompaction } from "../context/compaction-steps.js";
import { defaultConvertToLlm } from "../context/convert-to-llm.js";
import { withoutEmptyContent } from "../context/empty-content-repair.js";
import { microCompact } from "../context/micro-compaction.js";
import { DEFAULT_SUMMARY_PROMPT, findCompactionCut, summarizeOlderMessages } from "../context/summary-compaction.js";
import { estimateTokens } from "../context/token-estimate.js";
import { repairTranscript } from "../context/transcript-repair.js";
import { runHooks } from "../hooks/run-hooks.js";
import type { AgentMessage, Message } from "../messages/message-types.js";
import { addUsage } from "../messages/usage.js";
import type { StreamContext } from "../stream/stream-fn.js";
import { restoreRecentFiles } from "./restore-recent-files.js";
import type { RunState } from "./run-state.js";
import { DEFAULT_STALL_TIMEOUT_MS, streamAttempt } from "./stream-attempt.js";

const ignoreEvent = (): void => {};

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
 * Contract: synchronous unless a step is (summary, async transform, async convertToLlm).
 */
export function prepareRequest(state: RunState): PreparedRequest | Promise<PreparedRequest> {
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
  const tokens = estimateTokens(state.messages, state.systemPrompt);
  if (tokens > limits.compactAt || config.asyncTransformContext) return prepareSlowly(state, tokens, limits.compactAt);
  return convertAndCheck(state, tokens);
}

async function prepareSlowly(state: RunState, tokens: number, compactAt: number): Promise<PreparedRequest> {
  let transcriptTokens = tokens;
  if (tokens > compactAt && (await summarize(state))) {
    transcriptTokens = estimateTokens(state.messages, state.systemPrompt);
  }
  return convertAndCheck(state, transcriptTokens);
}

function convertAndCheck(state: RunState, transcriptTokens: number): PreparedRequest | Promise<PreparedRequest> {
  const { config } = state;
  const transformed = config.asyncTransformContext
    ? config.asyncTransformContext(state.messages, state.signal)
    : state.messages;
  if (transformed instanceof Promise) {
    return transformed.then((view) => {
      const converted = convertView(state, view);
      return converted instanceof Promise
        ? converted.then((c) => finishRequest(state, c, transcriptTokens))
        : finishRequest(state, converted, transcriptTokens);
    });
  }
  const converted = convertView(state, transformed);
  if (converted instanceof Promise) return converted.then((c) => finishRequest(state, c, transcriptTokens));
  return finishRequest(state, converted, transcriptTokens);
}

function convertView(state: RunState, view: AgentMessage[]): Message[] | Promise<Message[]> {
  const { config } = state;
  const transformed = config.transformContext ? config.transformContext(view) : view;
  return config.convertToLlm ? config.convertToLlm(transformed) : defaultConvertToLlm(transformed);
}

function finishRequest(state: RunState, converted: Message[], transcriptTokens: number): PreparedRequest {
  const messages = repairTranscript(withoutEmptyContent(converted));
  const limits = contextLimits(state);
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
  const keepRecentTokens = cfg?.keepRecentTokens ?? DEFAULT_KEEP_RECENT_TOKENS;
  if (findCompactionCut(state.messages, keepRecentTokens) === 0) return false;
  if (state.config.hooks?.pre_compact) {
    const event = { event: "pre_compact" as const, runId: state.run.runId, sessionId: state.run.sessionId };
    const hookEvent = { ...event, turn: state.turn, messageCount: state.messages.length };
    await runHooks(state.config.hooks, hookEvent, state.signal, state.config.logger);
  }
  const before = estimateTokens(state.messages, state.systemPrompt);
  const model = cfg?.model ?? state.model;
  const apiKey = state.config.getApiKey ? await state.config.getApiKey(model.provider) : undefined;
  const streamFn = cfg?.streamFn ?? state.config.streamFn;
  state.emit({ type: "compaction_start", kind: "summary", tokensBefore: before });
  const outcome = await summarizeOlderMessages({
    messages: state.messages,
    keepRecentTokens,
    convert: state.config.convertToLlm ?? defaultConvertToLlm,
    prompt: cfg?.summaryPrompt ?? DEFAULT_SUMMARY_PROMPT,
    complete: async (context) => {
      const request = new AbortController();
      const unwatch = state.abortHooks.watch(() => request.abort(state.signal.reason));
      try {
        const outcome = await streamAttempt({
          streamFn,
          model,
          context,
          options: apiKey === undefined ? { signal: request.signal } : { signal: request.signal, apiKey },
          runSignal: state.signal,
          request,
          watchAbort: state.abortHooks.watch,
          stallTimeoutMs: state.config.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS,
          emit: ignoreEvent,
          onToolCallEnd: undefined,
        });
        return outcome.message;
      } finally {
        unwatch();
      }
    },
  });
  if (outcome.reply) addUsage(state.usage, outcome.reply.usage);
  if (!outcome.ok) {
    state.emit({ type: "compaction_failed", kind: "summary", error: outcome.error });
    return false;
  }
  replaceTranscript(state, finishCompaction(state.messages, outcome.messages, cfg?.afterCompaction));
  await restoreRecentFiles(state);
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
