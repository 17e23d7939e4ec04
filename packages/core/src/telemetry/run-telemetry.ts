import {
  type Attributes,
  type Context,
  context,
  ProxyTracer,
  ProxyTracerProvider,
  type Span,
  type SpanContext,
  SpanKind,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";
import type { ToolCall } from "../messages/content.js";
import type { AssistantMessage, ToolResultMessage } from "../messages/message-types.js";
import type { Usage } from "../messages/usage.js";
import type { Model } from "../model/model.js";
import type { StreamContext, StreamOptions } from "../stream/stream-fn.js";
import type { ToolRunInfo } from "../tools/tool-types.js";
import { CHORUS, finishReason, GEN_AI } from "./genai-attributes.js";
import { genAiInputMessages, genAiOutputMessages, genAiSystemInstructions } from "./genai-messages.js";
import { type GenAiInstruments, genAiInstruments } from "./genai-metrics.js";
import type { AgentTelemetryConfig } from "./telemetry-config.js";

const tracer = trace.getTracer("@chorus/core");
/** What a tracer provider that nothing was registered with delegates to: the API's no-op provider. */
const NO_TRACER_PROVIDER = new ProxyTracerProvider().getDelegate();

/**
 * True when no TracerProvider is registered, so every span a run could start would be a no-op. Checked per run (an
 * SDK may be registered at any time) because asking the no-op tracer for a span costs a context lookup, a span
 * object and an `isRecording` call per run for nothing.
 */
function tracingOff(): boolean {
  if (!(tracer instanceof ProxyTracer)) return false;
  const provider = trace.getTracerProvider();
  return provider instanceof ProxyTracerProvider && provider.getDelegate() === NO_TRACER_PROVIDER;
}

/** One model call under way: its span (if traced) and its start time (for the duration metric). */
export interface ChatCall {
  readonly span: Span | undefined;
  readonly startedAt: number;
  readonly model: Model;
}

/**
 * The spans and metrics of one agent run: `invoke_agent {agent}` for the run, `chat {model}` (CLIENT) per model call,
 * `execute_tool {tool}` per tool call, whose context is active while the tool runs (sub-agents nest under it).
 * Contract: `startRunTelemetry` returns undefined when no SDK records spans or metrics, so the loop does no work.
 */
export class RunTelemetry {
  readonly #span: Span | undefined;
  readonly #context: Context;
  readonly #metrics: GenAiInstruments | undefined;
  readonly #agentName: string;
  readonly #content: boolean;

  constructor(
    span: Span | undefined,
    parent: Context,
    metrics: GenAiInstruments | undefined,
    config: AgentTelemetryConfig,
  ) {
    this.#span = span;
    this.#context = span === undefined ? parent : trace.setSpan(parent, span);
    this.#metrics = metrics;
    this.#agentName = config.agentName ?? "agent";
    this.#content = config.captureContent === true;
  }

  /** Starts a `chat {model}` span for one model call. */
  startChat(model: Model, request: StreamContext, options: StreamOptions, attempt: number): ChatCall {
    const startedAt = performance.now();
    if (this.#span === undefined) return { span: undefined, startedAt, model };
    const attributes: Attributes = {
      [GEN_AI.operationName]: "chat",
      [GEN_AI.providerName]: model.provider,
      [GEN_AI.requestModel]: model.id,
      [CHORUS.attempt]: attempt,
    };
    if (options.maxTokens !== undefined) attributes[GEN_AI.requestMaxTokens] = options.maxTokens;
    if (options.temperature !== undefined) attributes[GEN_AI.requestTemperature] = options.temperature;
    if (this.#content) {
      if (request.systemPrompt !== undefined) {
        attributes[GEN_AI.systemInstructions] = genAiSystemInstructions(request.systemPrompt);
      }
      attributes[GEN_AI.inputMessages] = genAiInputMessages(request.messages);
    }
    const span = tracer.startSpan(`chat ${model.id}`, { kind: SpanKind.CLIENT, attributes }, this.#context);
    return { span, startedAt, model };
  }

  /** Ends a model call's span and records its duration and token usage. */
  endChat(call: ChatCall, message: AssistantMessage, errorType: string | undefined): void {
    const metrics = this.#metrics;
    if (metrics !== undefined) {
      const attributes: Attributes = {
        [GEN_AI.operationName]: "chat",
        [GEN_AI.providerName]: call.model.provider,
        [GEN_AI.requestModel]: call.model.id,
        [GEN_AI.responseModel]: message.model,
      };
      if (errorType !== undefined) attributes[GEN_AI.errorType] = errorType;
      metrics.operationDuration.record((performance.now() - call.startedAt) / 1000, attributes);
      const usage = message.usage;
      if (usage.input + usage.cacheRead + usage.cacheWrite > 0 || usage.output > 0) {
        metrics.tokenUsage.record(usage.input + usage.cacheRead + usage.cacheWrite, {
          ...attributes,
          [GEN_AI.tokenType]: "input",
        });
        metrics.tokenUsage.record(usage.output, { ...attributes, [GEN_AI.tokenType]: "output" });
      }
      if (usage.cost.total > 0) metrics.agentCost.add(usage.cost.total, { [GEN_AI.agentName]: this.#agentName });
    }
    const span = call.span;
    if (span === undefined) return;
    span.setAttributes(usageAttributes(message.usage));
    span.setAttribute(GEN_AI.responseModel, message.model);
    span.setAttribute(GEN_AI.finishReasons, [finishReason(message.stopReason)]);
    if (message.responseId !== undefined) span.setAttribute(GEN_AI.responseId, message.responseId);
    if (this.#content) span.setAttribute(GEN_AI.outputMessages, genAiOutputMessages(message));
    if (errorType !== undefined) {
      span.setAttribute(GEN_AI.errorType, errorType);
      span.setStatus({ code: SpanStatusCode.ERROR, message: message.errorMessage ?? errorType });
    }
    span.end();
  }

  /**
   * Runs `work` with the run's `invoke_agent` span active, so that what the run does — its model calls, the event
   * handlers it calls, the log lines they write — is in the run's trace. Contract: `work` as is when not traced.
   */
  within<T>(work: () => T): T {
    return this.#span === undefined ? work() : context.with(this.#context, work);
  }

  /** The run's `invoke_agent` span, when traced (what a later run that resumes this one links to). */
  get spanContext(): SpanContext | undefined {
    return this.#span?.spanContext();
  }

  /** Starts an `execute_tool {tool}` span; undefined when not traced. */
  startTool(call: ToolCall, args: unknown): Span | undefined {
    if (this.#span === undefined) return undefined;
    const attributes: Attributes = {
      [GEN_AI.operationName]: "execute_tool",
      [GEN_AI.toolName]: call.name,
      [GEN_AI.toolCallId]: call.id,
      [GEN_AI.toolType]: "function",
    };
    if (this.#content) attributes[GEN_AI.toolArguments] = JSON.stringify(args ?? call.arguments);
    return tracer.startSpan(`execute_tool ${call.name}`, { kind: SpanKind.INTERNAL, attributes }, this.#context);
  }

  /** Runs `work` with the tool's span active, so that what the tool starts (a sub-agent) is its child. */
  withTool<T>(span: Span | undefined, work: () => T): T {
    if (span === undefined) return work();
    return context.with(trace.setSpan(this.#context, span), work);
  }

  /** Ends a tool span with its outcome. */
  endTool(span: Span | undefined, result: ToolResultMessage): void {
    if (span === undefined) return;
    span.setAttribute(CHORUS.toolOutcome, result.isError ? "error" : "success");
    if (this.#content) span.setAttribute(GEN_AI.toolResult, JSON.stringify(result.content));
    if (result.isError) {
      span.setAttribute(GEN_AI.errorType, "tool_error");
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
    span.end();
  }

  /** Ends the run's span with its outcome and total usage. */
  end(reason: string, usage: Usage, error: string | undefined): void {
    const span = this.#span;
    if (span === undefined) return;
    span.setAttributes(usageAttributes(usage));
    span.setAttribute(CHORUS.endReason, reason);
    span.setAttribute(CHORUS.costUsd, usage.cost.total);
    if (reason === "error") {
      span.setAttribute(GEN_AI.errorType, "agent_error");
      span.setStatus({ code: SpanStatusCode.ERROR, message: error ?? reason });
    }
    span.end();
  }
}

/**
 * Starts a run's `invoke_agent {agent}` span ahead of the run (a child of `config.parent` or the active context, with
 * `config.links`), for a caller that needs its context first — to store its traceparent with the run — and passes it
 * on as `telemetry.span`; the run fills in its attributes and ends it. Contract: undefined when no SDK records it.
 * @example
 * const span = startInvokeAgentSpan({ agentName: "helper" });
 * await saveRun(runId, span?.spanContext());
 * agentLoop(prompts, context, { model, streamFn, telemetry: { agentName: "helper", ...(span ? { span } : {}) } });
 */
export function startInvokeAgentSpan(config: AgentTelemetryConfig | undefined): Span | undefined {
  const settings = config ?? {};
  const links = settings.links?.();
  const options =
    links === undefined || links.length === 0
      ? { kind: SpanKind.INTERNAL }
      : { kind: SpanKind.INTERNAL, links: [...links] };
  const span = tracer.startSpan(`invoke_agent ${settings.agentName ?? "agent"}`, options, settings.parent);
  return span.isRecording() ? span : undefined;
}

/**
 * Starts the telemetry of a run: its `invoke_agent` span (a child of `config.parent` or the active context).
 * Contract: undefined when neither a TracerProvider records the span nor a MeterProvider is registered.
 */
export function startRunTelemetry(
  config: AgentTelemetryConfig | undefined,
  model: Model,
  run: ToolRunInfo,
): RunTelemetry | undefined {
  // Nothing to record and no span handed over: the run does no telemetry work at all.
  if (config?.span === undefined && tracingOff() && genAiInstruments() === undefined) return undefined;
  const settings = config ?? {};
  const parent = settings.parent ?? context.active();
  const name = settings.agentName ?? "agent";
  const given = typeof settings.span === "function" ? settings.span() : settings.span;
  const span = given === undefined ? startInvokeAgentSpan(settings) : given.isRecording() ? given : undefined;
  const metrics = genAiInstruments();
  if (span === undefined && metrics === undefined) return undefined;
  if (span !== undefined) {
    const attributes: Attributes = {
      [GEN_AI.operationName]: "invoke_agent",
      [GEN_AI.agentName]: name,
      [GEN_AI.providerName]: model.provider,
      [GEN_AI.requestModel]: model.id,
      [CHORUS.runId]: run.runId,
      [CHORUS.runDepth]: run.depth,
    };
    if (settings.agentId !== undefined) attributes[GEN_AI.agentId] = settings.agentId;
    if (settings.conversationId !== undefined) attributes[GEN_AI.conversationId] = settings.conversationId;
    span.setAttributes(attributes);
  }
  return new RunTelemetry(span, parent, metrics, settings);
}

function usageAttributes(usage: Usage): Attributes {
  return {
    [GEN_AI.inputTokens]: usage.input + usage.cacheRead + usage.cacheWrite,
    [GEN_AI.outputTokens]: usage.output,
    [GEN_AI.cacheReadTokens]: usage.cacheRead,
    [GEN_AI.cacheCreationTokens]: usage.cacheWrite,
  };
}
