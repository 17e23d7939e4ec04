import { finishCompaction } from "../context/compaction-steps.js";
import { withRestoredFiles } from "../context/context-restoration/with-restored-files.js";
import { defaultConvertToLlm } from "../context/convert-to-llm.js";
import { planSessionMemoryCompaction } from "../context/session-memory/session-memory-compaction.js";
import { DEFAULT_SUMMARY_PROMPT, findCompactionCut, summarizeOlderMessages } from "../context/summary-compaction.js";
import { estimateTokens } from "../context/token-estimate.js";
import { runHooks } from "../hooks/run-hooks.js";
import type { AgentMessage, AssistantMessage } from "../messages/message-types.js";
import type { Model } from "../model/model.js";
import type { StreamFn, StreamOptions } from "../stream/stream-fn.js";
import type { ToolRunInfo } from "../tools/tool-types.js";
import { AbortHooks } from "./abort-hooks.js";
import type { AgentEvent } from "./agent-events.js";
import type { AgentLoopConfig, ContextConfig } from "./loop-config.js";
import { DEFAULT_STALL_TIMEOUT_MS, streamAttempt } from "./stream-attempt.js";

/** Tokens of recent messages a summarising compaction keeps verbatim unless configured. */
export const DEFAULT_KEEP_RECENT_TOKENS = 20_000;

/** What one summarising compaction needs: the transcript, the agent's settings, and who asked. */
export interface CompactTranscriptRequest {
  messages: readonly AgentMessage[];
  systemPrompt?: string | undefined;
  /** The agent's context settings: `compaction` (prompt, model, steps) and `restoration`. */
  context: ContextConfig | undefined;
  /** Overrides `context.compaction.keepRecentTokens` (e.g. a manual compaction keeping less). */
  keepRecentTokens?: number;
  /** The model of the summary unless `context.compaction.model` names one. */
  model: Model;
  /** The agent's settings the summary call and the hooks use. */
  config: Pick<AgentLoopConfig, "streamFn" | "getApiKey" | "convertToLlm" | "stallTimeoutMs" | "hooks" | "logger">;
  /** The run (or manual compaction) it belongs to: the hooks' and the restoration source's view. */
  run: ToolRunInfo;
  turn: number;
  /** Aborts the hooks and the summary call; an aborted compaction changes nothing. */
  signal: AbortSignal;
  emit: (event: AgentEvent) => void;
}

/**
 * A compaction's outcome; `reply` is the summariser's answer (for its usage) when one came. `tier` 1: the kept
 * session-memory summary served it (no model call, no `reply`); 2: it was summarised.
 */
export type CompactTranscriptOutcome =
  | {
      ok: true;
      tier: 1 | 2;
      messages: AgentMessage[];
      tokensBefore: number;
      tokensAfter: number;
      reply?: AssistantMessage;
    }
  | { ok: false; reason: "nothing" | "aborted" | "failed"; error: string; reply?: AssistantMessage };

/**
 * THE summarising compaction, shared by the loop's automatic one and apps' manual one (a `/compact` command):
 * `pre_compact` hooks, the summary call (stall-guarded, aborted with `signal`), the post-compaction steps, the
 * recently read files re-attached, and the `compaction_start` / `compaction` / `compaction_failed` events.
 * Tier 1 first (seed 004): when `context.compaction.sessionMemory` holds a summary that still fits the transcript and
 * saves at least its minimum, it replaces the messages it covers with no model call (`session_memory_compact`, then
 * `compaction` with `tier: 1`), followed by the same steps and restoration; otherwise tier 2 summarises.
 * Contract: never throws; the caller's transcript is never changed — on `ok` the caller takes `messages` (also in
 * the `compaction` event); on abort or failure nothing changed (`compaction_failed` follows a `compaction_start`).
 */
export async function compactTranscript(req: CompactTranscriptRequest): Promise<CompactTranscriptOutcome> {
  const cfg = req.context?.compaction;
  const keepRecentTokens = req.keepRecentTokens ?? cfg?.keepRecentTokens ?? DEFAULT_KEEP_RECENT_TOKENS;
  const tierOne =
    cfg?.sessionMemory === undefined ? undefined : planSessionMemoryCompaction(req.messages, cfg.sessionMemory);
  const planned = typeof tierOne === "object" ? tierOne : undefined;
  if (planned === undefined && findCompactionCut(req.messages, keepRecentTokens) === 0) {
    return { ok: false, reason: "nothing", error: "nothing old enough to summarise" };
  }
  const { hooks, logger } = req.config;
  if (hooks?.pre_compact) {
    const event = { event: "pre_compact" as const, runId: req.run.runId, sessionId: req.run.sessionId };
    await runHooks(hooks, { ...event, turn: req.turn, messageCount: req.messages.length }, req.signal, logger);
  }
  if (req.signal.aborted) return { ok: false, reason: "aborted", error: STOPPED };
  const before = estimateTokens(req.messages, req.systemPrompt);
  req.emit({ type: "compaction_start", kind: "summary", tokensBefore: before });
  if (planned !== undefined) {
    const finished = await finishAndRestore(req, planned.messages);
    if (finished === undefined) return aborted(req);
    const { savedTokens, summaryTokens } = planned;
    // Before the events: a subscriber storing the summary sees it cover its part of the new transcript.
    cfg?.sessionMemory?.applied?.(finished.messages, planned.part);
    req.emit({ type: "session_memory_compact", savedTokens, summaryTokens });
    req.emit({ type: "compaction", kind: "summary", tier: 1, tokensBefore: before, ...finished });
    return { ok: true, tier: 1, tokensBefore: before, ...finished };
  }
  const outcome = await summarizeOlderMessages({
    messages: req.messages,
    keepRecentTokens,
    convert: req.config.convertToLlm ?? defaultConvertToLlm,
    prompt: cfg?.summaryPrompt ?? DEFAULT_SUMMARY_PROMPT,
    complete: (context) => summaryCall(req, cfg?.model ?? req.model, cfg?.streamFn ?? req.config.streamFn, context),
  });
  const reply = outcome.reply === undefined ? {} : { reply: outcome.reply };
  if (req.signal.aborted) return { ...aborted(req), ...reply };
  if (!outcome.ok) {
    req.emit({ type: "compaction_failed", kind: "summary", error: outcome.error });
    return { ok: false, reason: "failed", error: outcome.error, ...reply };
  }
  const finished = await finishAndRestore(req, outcome.messages);
  if (finished === undefined) return { ...aborted(req), ...reply };
  req.emit({ type: "compaction", kind: "summary", tier: 2, tokensBefore: before, ...finished });
  return { ok: true, tier: 2, tokensBefore: before, ...finished, reply: outcome.reply };
}

/**
 * Both tiers' ending: the post-compaction steps (orphaned tool results stripped), then the recently read files
 * re-attached. Undefined when stopped meanwhile (the restoration source is awaited; the transcript stays as it was).
 */
async function finishAndRestore(
  req: CompactTranscriptRequest,
  compactedMessages: AgentMessage[],
): Promise<{ messages: AgentMessage[]; tokensAfter: number } | undefined> {
  const compacted = finishCompaction(req.messages, compactedMessages, req.context?.compaction?.afterCompaction);
  // The plan, todos and skills sources look into the transcript as it was before the summary.
  const restored = await withRestoredFiles(req.context?.restoration, req.run, compacted, req.messages);
  if (restored.error !== undefined) {
    req.config.logger?.warn({ err: restored.error }, "a context restoration source failed after compaction; left out");
  }
  if (req.signal.aborted) return undefined;
  return { messages: restored.messages, tokensAfter: estimateTokens(restored.messages, req.systemPrompt) };
}

/** The summary's model call: guarded like a turn's (stall timer, abort), its events kept out of the transcript. */
async function summaryCall(
  req: CompactTranscriptRequest,
  model: Model,
  streamFn: StreamFn,
  context: Parameters<StreamFn>[1],
): Promise<AssistantMessage> {
  const apiKey = req.config.getApiKey ? await req.config.getApiKey(model.provider) : undefined;
  const request = new AbortController();
  const hooks = new AbortHooks(req.signal);
  req.signal.addEventListener("abort", hooks.fire, { once: true });
  const unwatch = hooks.watch(() => request.abort(req.signal.reason));
  // The session and the purpose: a host's budget reserves and books the summary against the session like a turn.
  const sessionId = req.run.sessionId;
  const options: StreamOptions = {
    signal: request.signal,
    purpose: "compaction",
    ...(sessionId === undefined ? {} : { sessionId }),
    ...(apiKey === undefined ? {} : { apiKey }),
  };
  try {
    const outcome = await streamAttempt({
      streamFn,
      model,
      context,
      options,
      runSignal: req.signal,
      request,
      watchAbort: hooks.watch,
      stallTimeoutMs: req.config.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS,
      emit: ignoreEvent,
      onToolCallEnd: undefined,
    });
    return outcome.message;
  } finally {
    unwatch();
    req.signal.removeEventListener("abort", hooks.fire);
  }
}

const STOPPED = "the compaction was stopped";

/** A compaction stopped after `compaction_start`: its end is told too. */
function aborted(req: CompactTranscriptRequest): { ok: false; reason: "aborted"; error: string } {
  req.emit({ type: "compaction_failed", kind: "summary", error: STOPPED });
  return { ok: false, reason: "aborted", error: STOPPED };
}

const ignoreEvent = (): void => {};
