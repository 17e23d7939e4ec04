import type { GatewayEventBus } from "@chorus/gateway";
import type { Logger } from "pino";

interface RunInfo {
  readonly sessionKey: string;
  readonly agentId: string;
  readonly depth: number;
  readonly parentRunId: string | undefined;
  readonly startedAt: number;
}

/**
 * Logs runs from the gateway's event bus: one info line when a run ends (its session, agent, depth and duration),
 * its start, tool calls and received messages at debug; every line carries the session key and run id.
 * Why so few: these lines are written for every chat message, and a child logger or a second JSON line per message
 * is a measurable share of the hot path (see bench/README.md, side by side).
 * Contract: runs that end are forgotten; at most 10 000 runs are tracked at once.
 */
export function logRunEvents(events: GatewayEventBus, logger: Logger): void {
  const runs = new Map<string, RunInfo>();
  events.subscribe(
    (delivery) => {
      switch (delivery.type) {
        case "dropped":
          logger.warn({ count: delivery.count }, "run log fell behind; events skipped");
          return;
        case "message_received":
          if (logger.isLevelEnabled("debug")) {
            logger.debug(
              { sessionKey: delivery.sessionKey, channel: delivery.channel, chatId: delivery.chatId },
              "message received",
            );
          }
          return;
        case "run_started": {
          const info: RunInfo = {
            sessionKey: delivery.sessionKey,
            agentId: delivery.agentId,
            depth: delivery.depth,
            parentRunId: delivery.parentRunId,
            startedAt: delivery.at,
          };
          runs.set(delivery.runId, info);
          if (runs.size > 10_000) runs.delete(runs.keys().next().value as string);
          if (logger.isLevelEnabled("debug")) logger.debug(runFields(delivery.runId, info), "run started");
          return;
        }
        case "tool_activity":
          if (delivery.compressed !== undefined) {
            // Audit: the model read a summary of this output, not the output itself (TACO, seed 002).
            logger.info(
              {
                sessionKey: delivery.sessionKey,
                runId: delivery.runId,
                tool: delivery.toolName,
                ...delivery.compressed,
              },
              "tool output compressed",
            );
          }
          if (logger.isLevelEnabled("debug")) {
            logger.debug(
              {
                sessionKey: delivery.sessionKey,
                runId: delivery.runId,
                tool: delivery.toolName,
                phase: delivery.phase,
                ...(delivery.isError ? { isError: true } : {}),
              },
              `tool ${delivery.phase}`,
            );
          }
          return;
        case "subagent_spawned":
          logger.info(
            {
              sessionKey: delivery.parentSessionKey,
              runId: delivery.parentRunId,
              childRunId: delivery.runId,
              agentId: delivery.agentId,
              depth: delivery.depth,
            },
            "sub-agent spawned",
          );
          return;
        case "subagent_completed":
          logger.info(
            {
              sessionKey: delivery.sessionKey,
              runId: delivery.parentRunId,
              childRunId: delivery.runId,
              outcome: delivery.outcome,
            },
            "sub-agent ended",
          );
          return;
        case "run_ended": {
          const info = runs.get(delivery.runId);
          runs.delete(delivery.runId);
          const fields = {
            ...(info === undefined
              ? { sessionKey: delivery.sessionKey, runId: delivery.runId }
              : { ...runFields(delivery.runId, info), durationMs: delivery.at - info.startedAt }),
          };
          if (delivery.outcome === "completed") logger.info(fields, "run ended");
          else
            logger.warn(
              { ...fields, outcome: delivery.outcome, ...(delivery.error ? { error: delivery.error } : {}) },
              "run ended",
            );
          return;
        }
        case "delivery_failed":
          logger.warn(
            {
              sessionKey: delivery.sessionKey,
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

function runFields(runId: string, info: RunInfo): Record<string, unknown> {
  return {
    sessionKey: info.sessionKey,
    runId,
    agentId: info.agentId,
    depth: info.depth,
    ...(info.parentRunId === undefined ? {} : { parentRunId: info.parentRunId }),
  };
}
