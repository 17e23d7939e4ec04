import { defaultConvertToLlm } from "../context/convert-to-llm.js";
import { withoutEmptyContent } from "../context/empty-content-repair.js";
import { microCompact } from "../context/micro-compaction.js";
import { estimateTokens, estimateToolTokens } from "../context/token-estimate.js";
import { repairTranscript } from "../context/transcript-repair.js";
import type { AgentMessage, Message } from "../messages/message-types.js";
import { addUsage } from "../messages/usage.js";
import type { LlmTool, StreamContext } from "../stream/stream-fn.js";
import { compactTranscript } from "./compact-transcript.js";
import { relieveSoftPressure, warnNearCompaction } from "./context-pressure.js";
import { applyFocusReduction } from "./focus-reduction-step.js";
import type { RunState } from "./run-state.js";

/** Tokens kept free below the window unless configured: the summarising compaction starts past window − reserve. */
export const DEFAULT_RESERVE = 20_000;
const DEFAULT_BLOCKING_RESERVE = 13_000;

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
 * Everything before a model call (seed 000's order, with seed 002/004's pressure tiers): micro-compaction, the
 * deferred tool-pair summaries past the soft threshold, the warning before window − reserve, summarising compaction
 * past window − reserve, the async and sync
 * transforms, convertToLlm, transcript repair, and the hard ceiling check.
 * Contract: synchronous unless a step is (summary, async transform, async convertToLlm).
 */
export function prepareRequest(state: RunState): PreparedRequest | Promise<PreparedRequest> {
  const { config } = state;
  if (config.context?.focus) applyFocusReduction(state, config.context.focus);
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
  // The tool definitions travel with every request: they count toward compaction and the ceiling like the messages.
  let tokens = estimateTokens(state.messages, state.systemPrompt) + estimateToolTokens(state.llmTools);
  tokens = relieveSoftPressure(state, tokens, limits.window);
  if (tokens > limits.compactAt || config.asyncTransformContext) return prepareSlowly(state, tokens, limits.compactAt);
  return convertAndCheck(state, tokens);
}

async function prepareSlowly(state: RunState, tokens: number, compactAt: number): Promise<PreparedRequest> {
  let transcriptTokens = tokens;
  if (tokens > compactAt && (await summarize(state))) {
    transcriptTokens = estimateTokens(state.messages, state.systemPrompt) + estimateToolTokens(state.llmTools);
  }
  return convertAndCheck(state, transcriptTokens);
}

function convertAndCheck(state: RunState, transcriptTokens: number): PreparedRequest | Promise<PreparedRequest> {
  const { config } = state;
  warnNearCompaction(state, transcriptTokens, contextLimits(state));
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
  const toolTokens = estimateToolTokens(state.llmTools);
  const estimate =
    messages === state.messages ? transcriptTokens : estimateTokens(messages, state.systemPrompt) + toolTokens;
  if (estimate > limits.ceiling) {
    const tools = toolTokens > 0 ? `, ${toolTokens} of them tool definitions` : "";
    return {
      ok: false,
      error:
        `The conversation is too large to send: about ${estimate} tokens${tools}, over the limit of ${limits.ceiling} ` +
        `(context window ${limits.window}); compaction could not reduce it enough.`,
    };
  }
  return { ok: true, context: streamContext(messages, state.systemPrompt, state.llmTools) };
}

/**
 * The request's context, with only the fields that are set. Whole literals rather than fields added one by one: an
 * object built up that way gets a V8 map that a full GC drops between runs (see keepShape), and with it the
 * optimized code of every function that read such a context.
 */
function streamContext(
  messages: Message[],
  systemPrompt: string | undefined,
  tools: LlmTool[] | undefined,
): StreamContext {
  if (systemPrompt === undefined) return tools === undefined ? { messages } : { messages, tools };
  return tools === undefined ? { messages, systemPrompt } : { messages, systemPrompt, tools };
}

/**
 * Summarises older messages into one through the shared compaction entry (emits `compaction`). Contract: never
 * throws; false when compaction is off, there is nothing to summarise, or the summariser failed.
 */
export async function summarize(state: RunState): Promise<boolean> {
  if (state.config.context?.compaction?.enabled === false) return false;
  const outcome = await compactTranscript({
    messages: state.messages,
    systemPrompt: state.systemPrompt,
    context: state.config.context,
    model: state.model,
    config: state.config,
    run: state.run,
    turn: state.turn,
    signal: state.signal,
    emit: state.emit,
  });
  if (outcome.reply) addUsage(state.usage, outcome.reply.usage);
  if (!outcome.ok) return false;
  replaceTranscript(state, outcome.messages);
  return true;
}

/**
 * Swaps in a compacted transcript. The run's list of added messages is left as it was: it records
 * what the run added; the `compaction` event carries the compacted transcript.
 */
function replaceTranscript(state: RunState, messages: AgentMessage[]): void {
  state.messages = messages;
}
