import type { GatewayEventBus } from "@chorus/gateway";
import type { Logger } from "pino";

/**
 * Logs runs from the gateway's event bus with a child logger per run, so every line of a run carries its
 * session key and run id (start, tool calls, sub-agents, end).
 * Contract: runs that end are forgotten; at most 10 000 runs are tracked at once.
 */
export function logRunEvents(events: GatewayEventBus, logger: Logger): void {
  const runs = new Map<string, Logger>();
  const runLogger = (runId: string, sessionKey: string): Logger => {
    let child = runs.get(runId);
    if (child === undefined) {
      child = logger.child({ sessionKey, runId });
      runs.set(runId, child);
      if (runs.size > 10_000) runs.delete(runs.keys().next().value as string);
    }
    return child;
  };
  events.subscribe(
    (delivery) => {
      switch (delivery.type) {
        case "dropped":
          logger.warn({ count: delivery.count }, "run log fell behind; events skipped");
          return;
        case "message_received":
          logger
            .child({ sessionKey: delivery.sessionKey })
            .debug({ channel: delivery.channel, chatId: delivery.chatId }, "message received");
          return;
        case "run_started":
          runLogger(delivery.runId, delivery.sessionKey).info(
            {
              agentId: delivery.agentId,
              depth: delivery.depth,
              ...(delivery.parentRunId ? { parentRunId: delivery.parentRunId } : {}),
            },
            "run started",
          );
          return;
        case "tool_activity":
          runLogger(delivery.runId, delivery.sessionKey).debug(
            { tool: delivery.toolName, phase: delivery.phase, ...(delivery.isError ? { isError: true } : {}) },
            `tool ${delivery.phase}`,
          );
          return;
        case "subagent_spawned":
          runLogger(delivery.parentRunId, delivery.parentSessionKey).info(
            { childRunId: delivery.runId, agentId: delivery.agentId, depth: delivery.depth },
            "sub-agent spawned",
          );
          return;
        case "subagent_completed":
          runLogger(delivery.parentRunId, delivery.sessionKey).info(
            { childRunId: delivery.runId, outcome: delivery.outcome },
            "sub-agent ended",
          );
          return;
        case "run_ended": {
          const child = runLogger(delivery.runId, delivery.sessionKey);
          runs.delete(delivery.runId);
          if (delivery.outcome === "completed") child.info("run ended");
          else
            child.warn(
              { outcome: delivery.outcome, ...(delivery.error ? { error: delivery.error } : {}) },
              "run ended",
            );
          return;
        }
        case "delivery_failed":
          logger.child({ sessionKey: delivery.sessionKey }).warn(
            {
              channel: delivery.channel,
              attempt: delivery.attempt,
              willRetry: delivery.willRetry,
              error: delivery.error,
            },
            "reply delivery failed",
          );
          return;
      }
    },
    { bufferSize: 1024 },
  );
}
