import {
  type AgentEvent,
  type AgentLoopConfig,
  type AgentMessage,
  addUsage,
  agentLoop,
  emptyUsage,
  type Model,
  type StreamFn,
  startInvokeAgentSpan,
} from "@chorus/core";
import type { RunSpawn, SessionStore, TrustTier } from "@chorus/store";
import { childSessionKey, rootKeyOf } from "@chorus/store";
import { type ChildRunner, type ChildRunOutcome, parseTrustTier } from "@chorus/tools";
import { SpanStatusCode } from "@opentelemetry/api";
import type { GatewayEventBus } from "../events/gateway-event-bus.js";
import type { RunTracker } from "../fleet/run-tracker.js";
import { describeError, type GatewayLogger } from "../logging/gateway-logger.js";
import { assistantText } from "../reply-manager/assistant-text.js";
import { runStatusOf } from "../reply-manager/turn-committer.js";
import { resumesLink } from "../telemetry/resumes-link.js";
import { traceparentOf } from "../telemetry/traceparent.js";
import { rerunOf } from "./subagent-rerun.js";

/** What the gateway's child runner needs. */
export interface GatewayChildRunnerOptions {
  store: SessionStore;
  events: GatewayEventBus;
  runs: RunTracker;
  logger: GatewayLogger;
  /** Default model and StreamFn for profiles that name none (the parent agent's). */
  model: Model;
  streamFn: StreamFn;
  /** Extra loop settings for every child. */
  loop?: Omit<Partial<AgentLoopConfig>, "model" | "streamFn" | "tools" | "run" | "preDispatchPolicies">;
  now?: () => number;
  /** Told when a child's run ended for good, its end stored (a run a crash cut short is told only if re-run). */
  ended?(child: { readonly sessionKey: string; readonly agentId: string }): void;
}

/** The session key of a run, live or stored. */
export async function sessionKeyOfRun(
  runId: string,
  runs: RunTracker,
  store: SessionStore,
): Promise<string | undefined> {
  return runs.get(runId)?.sessionKey ?? (await store.getRun(runId))?.sessionKey;
}

/**
 * A @chorus/tools `ChildRunner` that gives every sub-agent a session: its key follows the grammar
 * (`agent:<agent>:sub:<depth>:<runId>:<parentKey>`, lineage fixed), its run is in the store's fleet registry with
 * its parent, its task is stored before the first model call and its transcript when it ends; it is live in the
 * RunTracker (so `/agents kill` reaches it) while it runs.
 * Contract: never rejects; a store failure is a "failed" outcome.
 */
export function gatewayChildRunner(options: GatewayChildRunnerOptions): ChildRunner & {
  /** The trust tier a child ran with (read once, when its background result is delivered). */
  takeTrust(childRunId: string): TrustTier;
} {
  const now = options.now ?? Date.now;
  const trustOf = new Map<string, TrustTier>();
  const run = async (request: Parameters<ChildRunner>[0]): Promise<ChildRunOutcome> => {
    const { store, events, runs } = options;
    const runId = request.run.runId;
    const parentRunId = String(request.run.meta?.parentRunId ?? "");
    const trustTier = parseTrustTier(request.run.meta?.trustTier);
    trustOf.set(runId, trustTier);
    // Wait-mode children are never asked for their tier: keep the map bounded.
    if (trustOf.size > 10_000) trustOf.delete(trustOf.keys().next().value as string);
    let childKey: string;
    const task: AgentMessage = { role: "user", content: request.task, timestamp: now() };
    // A re-run (its first run's instance stopped) works in the first run's session, which holds the task already;
    // its span links to the first run's.
    const rerun = rerunOf(request.run.meta, parentRunId);
    const rerunKey = rerun?.sessionKey;
    const link = resumesLink(rerun?.resumes);
    const telemetry = {
      ...options.loop?.telemetry,
      agentName: request.agent,
      agentId: request.agent,
      ...(link === undefined ? {} : { links: () => [link] }),
    };
    // Started ahead of the run so that its traceparent is stored with it, in startRun (a later re-run links to it).
    const span = startInvokeAgentSpan(telemetry);
    try {
      const parentKey = await sessionKeyOfRun(parentRunId, runs, store);
      if (parentKey === undefined) throw new Error(`the parent run ${parentRunId} is unknown`);
      childKey = rerunKey ?? childSessionKey(parentKey, request.agent, runId);
      if (rerunKey === undefined) {
        const root = await store.getSession(rootKeyOf(parentKey));
        await store.ensureSession({
          key: childKey,
          agentId: request.agent,
          channel: root?.channel ?? "",
          accountId: root?.accountId ?? "",
          chatId: root?.chatId ?? "",
          title: request.task.slice(0, 60),
        });
      }
      // Kept with the run: a run again after its instance died (a cluster takeover) runs as this one was spawned.
      const spawn: RunSpawn = {
        ...(request.label === undefined ? {} : { label: request.label }),
        ...(request.timeoutSeconds === undefined ? {} : { timeoutSeconds: request.timeoutSeconds }),
        trustTier,
        ...(request.mode === "background" ? { background: true } : {}),
      };
      const record = await store.startRun({
        id: runId,
        sessionKey: childKey,
        agentId: request.agent,
        parentRunId,
        spawn,
        ...(span === undefined ? {} : { traceparent: traceparentOf(span.spanContext()) }),
      });
      if (rerunKey === undefined) await store.appendMessages(childKey, [task]);
      events.publish({
        type: "run_started",
        at: now(),
        runId,
        sessionKey: childKey,
        agentId: request.agent,
        parentRunId,
        depth: record.depth,
      });
    } catch (error) {
      options.logger.error({ runId, error: describeError(error) }, "could not start a sub-agent session");
      span?.setStatus({ code: SpanStatusCode.ERROR, message: "the sub-agent could not start" });
      span?.end();
      return { status: "failed", text: `The sub-agent could not start: ${describeError(error)}`, usage: emptyUsage() };
    }

    const controller = new AbortController();
    const onParentAbort = (): void => controller.abort(request.signal.reason);
    if (request.signal.aborted) onParentAbort();
    request.signal.addEventListener("abort", onParentAbort, { once: true });
    const live = emptyUsage();
    runs.add({
      runId,
      sessionKey: childKey,
      agentId: request.agent,
      parentRunId,
      depth: request.run.depth,
      startedAt: now(),
      usage: () => live,
      abort: (reason) => controller.abort(reason),
    });
    let end: Extract<AgentEvent, { type: "agent_end" }> | undefined;
    try {
      const stream = agentLoop(
        [task],
        { systemPrompt: request.systemPrompt, messages: [] },
        {
          ...options.loop,
          telemetry: span === undefined ? telemetry : { ...telemetry, span },
          model: request.profile.model ?? options.model,
          streamFn: request.profile.streamFn ?? options.streamFn,
          tools: request.tools,
          run: { ...request.run, sessionId: childKey },
          preDispatchPolicies: request.preDispatchPolicies,
          ...(request.profile.maxTurns === undefined ? {} : { maxTurns: request.profile.maxTurns }),
        },
        controller.signal,
      );
      for await (const event of stream) {
        if (event.type === "message_end" && (event.message as { role?: string }).role === "assistant") {
          const usage = (event.message as { usage?: Parameters<typeof addUsage>[1] }).usage;
          if (usage !== undefined) addUsage(live, usage);
        }
        if (event.type === "tool_execution_start" || event.type === "tool_execution_end") {
          events.publish({
            type: "tool_activity",
            at: now(),
            runId,
            sessionKey: childKey,
            toolCallId: event.toolCallId,
            toolName: event.toolName,
            phase: event.type === "tool_execution_start" ? "start" : "end",
            ...(event.type === "tool_execution_end" ? { isError: event.isError } : {}),
          });
        }
        if (event.type === "agent_end") end = event;
      }
    } catch (error) {
      options.logger.error({ runId, error: describeError(error) }, "sub-agent loop failed");
    } finally {
      request.signal.removeEventListener("abort", onParentAbort);
      runs.remove(runId);
    }

    const reason = end?.reason ?? "error";
    const usage = end?.usage ?? live;
    const status = controller.signal.aborted ? "aborted" : runStatusOf(reason);
    const error = end?.error ?? (end === undefined ? "the sub-agent ended without a result" : undefined);
    try {
      await store.commitTurn({
        sessionKey: childKey,
        messages: (end?.messages ?? []).filter((message) => message !== task),
        run: { id: runId, patch: error === undefined ? { status, usage } : { status, usage, error } },
      });
      options.ended?.({ sessionKey: childKey, agentId: request.agent });
    } catch (commitError) {
      options.logger.error({ runId, error: describeError(commitError) }, "could not persist a sub-agent transcript");
    }
    events.publish({
      type: "run_ended",
      at: now(),
      runId,
      sessionKey: childKey,
      outcome: status === "completed" ? "completed" : status === "aborted" ? "aborted" : "failed",
      ...(error === undefined ? {} : { error }),
    });
    const text = lastText(end?.messages ?? []);
    if (status === "completed") return { status, text, usage };
    return { status: status === "aborted" ? "aborted" : "failed", text: error ?? (text || reason), usage };
  };
  return Object.assign(run, {
    takeTrust: (childRunId: string): TrustTier => {
      const tier = trustOf.get(childRunId) ?? "guest";
      trustOf.delete(childRunId);
      return tier;
    },
  });
}

function lastText(messages: readonly AgentMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const text = assistantText(messages[i]!);
    if (text !== "") return text;
  }
  return "";
}
