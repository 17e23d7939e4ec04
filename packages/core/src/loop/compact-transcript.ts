import { finishCompaction } from "../context/compaction-steps.js";
import { withRestoredFiles } from "../context/context-restoration/with-restored-files.js";
import { defaultConvertToLlm } from "../context/convert-to-llm.js";
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

/** A compaction's outcome; `reply` is the summariser's answer (for its usage) when one came. */
export type CompactTranscriptOutcome =
  | { ok: true; messages: AgentMessage[]; tokensBefore: number; tokensAfter: number; reply: AssistantMessage }
  | { ok: false; reason: "nothing" | "aborted" | "failed"; error: string; reply?: AssistantMessage };

/**
 * THE summarising compaction, shared by the loop's automatic one and apps' manual one (a `/compact` command):
 * `pre_compact` hooks, the summary call (stall-guarded, aborted with `signal`), the post-compaction steps, the
 * recently read files re-attached, and the `compaction_start` / `compaction` / `compaction_failed` events.
 * Contract: never throws; the caller's transcript is never changed — on `ok` the caller takes `messages` (also in
 * the `compaction` event); on abort or failure nothing changed (`compaction_failed` follows a `compaction_start`).
 */
export async function compactTranscript(req: CompactTranscriptRequest): Promise<CompactTranscriptOutcome> {
  const cfg = req.context?.compaction;
  const keepRecentTokens = req.keepRecentTokens ?? cfg?.keepRecentTokens ?? DEFAULT_KEEP_RECENT_TOKENS;
  if (findCompactionCut(req.messages, keepRecentTokens) === 0) {
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
  const compacted = finishCompaction(req.messages, outcome.messages, cfg?.afterCompaction);
  const restored = await withRestoredFiles(req.context?.restoration, req.run, compacted);
  if (restored.error !== undefined) {
    logger?.warn({ err: restored.error }, "restoring recently read files after compaction failed");
  }
  // The restoration source is awaited: a stop meanwhile still leaves the transcript as it was.
  if (req.signal.aborted) return { ...aborted(req), ...reply };
  const tokensAfter = estimateTokens(restored.messages, req.systemPrompt);
  req.emit({ type: "compaction", kind: "summary", tokensBefore: before, tokensAfter, messages: restored.messages });
  return { ok: true, messages: restored.messages, tokensBefore: before, tokensAfter, reply: outcome.reply };
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
