import type { Span } from "@opentelemetry/api";
import type { AgentEvent } from "../loop/agent-events.js";
import { keepShape } from "../loop/keep-shape.js";
import type { OutputCompressor } from "../loop/tool-output-compressor.js";
import type { ToolCall } from "../messages/content.js";
import type { AgentMessage, ToolResultMessage } from "../messages/message-types.js";
import type { Usage } from "../messages/usage.js";
import { type DispatchDeps, decideDispatch } from "../policies/dispatch-decision.js";
import { abortableSleep } from "../retry/abortable-sleep.js";
import type { RunTelemetry } from "../telemetry/run-telemetry.js";
import type { ExecutionContext } from "../tools/execution-context.js";
import type { AnyAgentTool, ToolCategory, ToolOutput, ToolRunInfo } from "../tools/tool-types.js";
import {
  abortMessage,
  DEFAULT_TOOL_TIMEOUTS,
  siblingDeniedMessage,
  ToolAbortError,
  type ToolAbortKind,
} from "./abort-reasons.js";
import { validateArgs } from "./validate-args.js";

const QUEUED = 0;
const RUNNING = 1;
const DONE = 2;

interface Entry {
  call: ToolCall;
  tool: AnyAgentTool | undefined;
  args: unknown;
  safe: boolean;
  state: typeof QUEUED | typeof RUNNING | typeof DONE;
  /** True once the tool itself was called (past its pre-dispatch policies and approval). */
  dispatched: boolean;
  /** Set when the call can never run (unknown tool, invalid arguments, cancelled). */
  immediate: string | undefined;
  controller: AbortController | undefined;
  timer: ReturnType<typeof setTimeout> | undefined;
  execution: Promise<ToolResultMessage> | undefined;
  result: ToolResultMessage | undefined;
  /** The call's `execute_tool` span, while it runs (traced runs only). */
  span?: Span | undefined;
}

/** What the executor needs from the loop. */
export interface ExecutorOptions {
  tools: ReadonlyMap<string, AnyAgentTool>;
  maxConcurrency: number;
  timeouts: Readonly<Record<ToolCategory, number>>;
  abortGraceMs: number;
  emit: (event: AgentEvent) => void;
  run: ToolRunInfo;
  /** The run's telemetry: each executed call gets an `execute_tool` span. */
  telemetry?: RunTelemetry | undefined;
  /** Registers a callback for the run's abort (which cancels every call with "user interrupted"). */
  watchAbort: (hook: () => void) => () => void;
  addUsage: (usage: Usage) => void;
  /** Pre-dispatch policies and approvals; undefined when there are no policies. */
  dispatch: ((call: ToolCall) => DispatchDeps) | undefined;
  /** Polled after each call completes; a non-empty answer cancels the rest of the batch. */
  pollSteering: (() => AgentMessage[] | Promise<AgentMessage[]>) | undefined;
  onSteering: (messages: AgentMessage[]) => void;
  /** Told when polling steering fails (the batch then goes on). */
  onPollError?: (error: unknown) => void;
  /** The run's frozen execution context, handed to every call. */
  execution?: ExecutionContext | undefined;
  /** TACO: replaces a finished result before it is reported (never rejects; the raw result on failure). */
  compressOutput?: OutputCompressor | undefined;
}

/**
 * Runs one assistant message's tool calls (seed 004's streaming executor): calls may be added
 * while the model still streams; concurrency-safe calls run together up to `maxConcurrency`, an
 * unsafe call runs alone and holds back the calls after it; `tool_execution_end` fires in
 * completion order while `finish()` returns results in call order. Every call that does not run
 * to completion gets a synthetic error result naming why (user, steering, sibling error, a denied sibling, timeout).
 */
export class ToolExecutor {
  private readonly entries: Entry[] = [];
  private running = 0;
  private unsafeRunning = false;
  private pending = 0;
  private cancelled: ToolAbortKind | undefined;
  /** The skipped calls' result text once a call of the batch was denied (seed 001: a denial halts its batch). */
  private halted: string | undefined;
  private sealed = false;
  private wake: (() => void) | undefined;
  /** Executions cut short by a user abort, awaited for a grace period before `finish` returns. */
  private abandoned: Promise<unknown>[] | undefined;
  private readonly unwatch: () => void;

  constructor(private readonly opts: ExecutorOptions) {
    this.unwatch = opts.watchAbort(() => this.cancelAll("user"));
  }

  /** Number of calls added so far. */
  get size(): number {
    return this.entries.length;
  }

  /** True when a call with this id was added. */
  has(toolCallId: string): boolean {
    for (const e of this.entries) if (e.call.id === toolCallId) return true;
    return false;
  }

  /** Queues a complete tool call and starts it when the scheduling rules allow. */
  add(call: ToolCall): void {
    const tool = this.opts.tools.get(call.name);
    const entry: Entry = {
      call,
      tool,
      args: call.arguments,
      safe: true,
      state: QUEUED,
      dispatched: false,
      immediate: undefined,
      controller: undefined,
      timer: undefined,
      execution: undefined,
      result: undefined,
      span: undefined,
    };
    if (this.cancelled) entry.immediate = this.cancelText(this.cancelled);
    else if (this.halted !== undefined) entry.immediate = this.halted;
    else if (!tool) entry.immediate = `Tool not found: ${call.name}`;
    else {
      const validated = validateArgs(tool, call.arguments);
      if (!validated.ok) entry.immediate = validated.error;
      else {
        entry.args = validated.args;
        entry.safe = isSafe(tool, validated.args);
      }
    }
    this.entries.push(entry);
    this.pending++;
    this.pump();
  }

  /** Adds a call that will never run, with a ready error result (e.g. cut off by the output limit). */
  addFailed(call: ToolCall, text: string): void {
    const entry: Entry = {
      call,
      tool: undefined,
      args: call.arguments,
      safe: true,
      state: QUEUED,
      dispatched: false,
      immediate: text,
      controller: undefined,
      timer: undefined,
      execution: undefined,
      result: undefined,
      span: undefined,
    };
    this.entries.push(entry);
    this.pending++;
    this.pump();
  }

  /**
   * No more calls will come: every result in call order once all are done — at once when they
   * already are (after an abort, running tools get `abortGraceMs` to wind down, then are abandoned).
   */
  finish(): ToolResultMessage[] | Promise<ToolResultMessage[]> {
    this.sealed = true;
    if (this.pending === 0 && !this.abandoned) {
      this.unwatch();
      return this.entries.map((e) => e.result as ToolResultMessage);
    }
    return this.finishLater();
  }

  private async finishLater(): Promise<ToolResultMessage[]> {
    if (this.pending > 0) {
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
    this.unwatch();
    if (this.abandoned) {
      const grace = new AbortController();
      await Promise.race([Promise.allSettled(this.abandoned), abortableSleep(this.opts.abortGraceMs, grace.signal)]);
      grace.abort();
    }
    return this.entries.map((e) => e.result as ToolResultMessage);
  }

  /** Stops every call that has not finished, with `kind` as the reason; later calls are cancelled on arrival. */
  cancelAll(kind: ToolAbortKind): void {
    if (this.cancelled) return;
    this.cancelled = kind;
    const text = this.cancelText(kind);
    for (const entry of this.entries) {
      if (entry.state === DONE) continue;
      if (entry.state === RUNNING) {
        entry.controller?.abort(new ToolAbortError(kind, text));
        if (kind === "user" && entry.execution) {
          this.abandoned ??= [];
          this.abandoned.push(entry.execution);
        }
      }
      this.complete(entry, this.errorResult(entry, text));
    }
  }

  /** Drops the executor after a failed model attempt: its calls are aborted as discarded. */
  discard(): void {
    this.cancelAll("discarded");
    this.unwatch();
  }

  private cancelText(kind: ToolAbortKind): string {
    return abortMessage(kind);
  }

  private pump(): void {
    for (const entry of this.entries) {
      if (entry.state !== QUEUED) continue;
      if (entry.immediate !== undefined) {
        this.opts.emit({
          type: "tool_execution_start",
          toolCallId: entry.call.id,
          toolName: entry.call.name,
          args: entry.args,
        });
        this.complete(entry, this.errorResult(entry, entry.immediate));
        continue;
      }
      const stopped = this.cancelled ? this.cancelText(this.cancelled) : this.halted;
      if (stopped !== undefined) {
        this.opts.emit({
          type: "tool_execution_start",
          toolCallId: entry.call.id,
          toolName: entry.call.name,
          args: entry.args,
        });
        this.complete(entry, this.errorResult(entry, stopped));
        continue;
      }
      const canStart =
        this.running === 0 || (entry.safe && !this.unsafeRunning && this.running < this.opts.maxConcurrency);
      if (!canStart) break;
      this.start(entry);
    }
  }

  private start(entry: Entry): void {
    entry.state = RUNNING;
    this.running++;
    if (!entry.safe) this.unsafeRunning = true;
    entry.controller = new AbortController();
    this.opts.emit({
      type: "tool_execution_start",
      toolCallId: entry.call.id,
      toolName: entry.call.name,
      args: entry.args,
    });
    const telemetry = this.opts.telemetry;
    let execution: Promise<ToolResultMessage>;
    if (telemetry === undefined) execution = this.execute(entry);
    else {
      const span = telemetry.startTool(entry.call, entry.args);
      entry.span = span;
      execution = telemetry.withTool(span, () => this.execute(entry));
    }
    entry.execution = execution;
    execution.then(
      (result) => this.complete(entry, result),
      (error: unknown) => this.complete(entry, this.errorResult(entry, errorText(error))),
    );
  }

  private async execute(entry: Entry): Promise<ToolResultMessage> {
    const tool = entry.tool as AnyAgentTool;
    const signal = (entry.controller as AbortController).signal;
    let args = entry.args;
    let approved = false;
    const dispatch = this.opts.dispatch;
    if (dispatch) {
      const verdict = await decideDispatch(dispatch(entry.call), entry.call, tool, args, signal);
      if (entry.state === DONE) return entry.result as ToolResultMessage;
      if (verdict.kind === "deny") return this.deny(entry, verdict.reason);
      approved = verdict.approved;
      if (verdict.rewritten) {
        const validated = validateArgs(tool, verdict.args);
        if (!validated.ok) return this.errorResult(entry, validated.error);
        args = validated.args;
      }
    }
    const timeoutMs = tool.timeoutMs ?? this.opts.timeouts[tool.category];
    if (Number.isFinite(timeoutMs) && timeoutMs > 0) {
      entry.timer = setTimeout(() => {
        const text = abortMessage("timeout", { ms: timeoutMs, category: tool.category });
        entry.controller?.abort(new ToolAbortError("timeout", text));
        this.complete(entry, this.errorResult(entry, text));
      }, timeoutMs);
    }
    const onUpdate = (partial: ToolOutput): void => {
      if (entry.state !== RUNNING) return;
      this.opts.emit({
        type: "tool_execution_update",
        toolCallId: entry.call.id,
        toolName: entry.call.name,
        args,
        partialResult: partial,
      });
    };
    const { run, addUsage, execution } = this.opts;
    const toolCallId = entry.call.id;
    entry.dispatched = true;
    // Whole literals, not a spread: a spread's object gets a map V8 drops at a full GC (see keepShape).
    const output = await tool.execute(
      args,
      execution === undefined
        ? { signal, toolCallId, run, addUsage, onUpdate }
        : { signal, toolCallId, run, addUsage, execution, onUpdate },
    );
    if (!output || !Array.isArray(output.content)) {
      return this.errorResult(entry, `Tool "${tool.name}" returned an invalid result (expected { content: [...] })`);
    }
    const result: ToolResultMessage = {
      role: "toolResult",
      toolCallId: entry.call.id,
      toolName: entry.call.name,
      content: output.content,
      isError: output.isError === true,
      timestamp: Date.now(),
    };
    if (output.details !== undefined) result.details = output.details;
    const compress = this.opts.compressOutput;
    if (!compress || entry.state !== RUNNING) return result;
    // The tool is done: its timeout no longer applies; the summary call has its own.
    if (entry.timer !== undefined) clearTimeout(entry.timer);
    return compress(result, approved, signal);
  }

  private complete(entry: Entry, result: ToolResultMessage): void {
    if (entry.state === DONE) return;
    const wasRunning = entry.state === RUNNING;
    entry.state = DONE;
    entry.result = result;
    if (entry.timer !== undefined) clearTimeout(entry.timer);
    if (wasRunning) {
      this.running--;
      if (!entry.safe) this.unsafeRunning = false;
    }
    this.pending--;
    if (entry.span !== undefined) {
      this.opts.telemetry?.endTool(entry.span, result);
      entry.span = undefined;
    }
    this.opts.emit({
      type: "tool_execution_end",
      toolCallId: entry.call.id,
      toolName: entry.call.name,
      result,
      isError: result.isError,
    });
    // After a denial the batch only winds down: steering is picked up by the loop once the batch is over.
    if (!this.cancelled && this.halted === undefined) {
      if (result.isError && wasRunning && entry.tool?.cancelSiblingsOnFailure) this.cancelAll("sibling_error");
      else if (wasRunning) this.checkSteering();
    }
    if (!this.cancelled || this.pending > 0) this.pump();
    if (this.pending === 0 && this.sealed && this.wake) {
      const wake = this.wake;
      this.wake = undefined;
      wake();
    }
  }

  /**
   * A pre-dispatch deny (a policy, the trust-tier gate, a hook, a refused or unanswered approval) halts the batch:
   * the denied call gets its reason, every sibling whose tool has not been called yet — queued, still streaming in,
   * or waiting on its own policies or approval — is skipped with a result naming the denied tool. A sibling whose tool
   * already runs (a concurrency-safe call started beside it) finishes with its own result: it was allowed, and
   * cutting it off mid-way could leave its work half done.
   */
  private deny(entry: Entry, reason: string): ToolResultMessage {
    const result = this.errorResult(entry, reason);
    if (this.cancelled || this.halted !== undefined) return result;
    const skipped = siblingDeniedMessage(entry.call.name);
    // Set before the denied call completes, so the pump it triggers skips the queued calls instead of starting them.
    this.halted = skipped;
    this.complete(entry, result);
    for (const sibling of this.entries) {
      if (sibling.state === DONE || sibling.dispatched) continue;
      if (sibling.state === RUNNING) sibling.controller?.abort(new ToolAbortError("sibling_denied", skipped));
      this.complete(sibling, this.errorResult(sibling, skipped));
    }
    return result;
  }

  private checkSteering(): void {
    const poll = this.opts.pollSteering;
    if (!poll) return;
    let found: AgentMessage[] | Promise<AgentMessage[]>;
    try {
      found = poll();
    } catch (error) {
      this.opts.onPollError?.(error);
      return;
    }
    if (Array.isArray(found)) this.applySteering(found);
    else
      found.then(
        (messages) => this.applySteering(messages),
        (error: unknown) => this.opts.onPollError?.(error),
      );
  }

  private applySteering(messages: AgentMessage[]): void {
    if (messages.length === 0) return;
    this.opts.onSteering(messages);
    this.cancelAll("steering");
  }

  private errorResult(entry: Entry, text: string): ToolResultMessage {
    return {
      role: "toolResult",
      toolCallId: entry.call.id,
      toolName: entry.call.name,
      content: [{ type: "text", text }],
      isError: true,
      timestamp: Date.now(),
    };
  }
}

function isSafe(tool: AnyAgentTool, args: unknown): boolean {
  const safe = tool.concurrencySafe;
  if (typeof safe !== "function") return safe === true;
  try {
    return safe(args) === true;
  } catch {
    return false;
  }
}

function errorText(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

const ignore = (): void => {};

// Keeps the class's V8 map alive across full GCs between runs (see keepShape).
keepShape(
  new ToolExecutor({
    tools: new Map(),
    maxConcurrency: 1,
    timeouts: DEFAULT_TOOL_TIMEOUTS,
    abortGraceMs: 0,
    emit: ignore,
    run: { runId: "", depth: 0 },
    watchAbort: () => ignore,
    addUsage: ignore,
    dispatch: undefined,
    pollSteering: undefined,
    onSteering: ignore,
  }),
);
