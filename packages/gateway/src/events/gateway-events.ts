/** How a run ended. */
export type RunOutcome = "completed" | "failed" | "aborted";

/** Everything the gateway reports about messages, runs and deliveries. `at` is epoch milliseconds. */
export type GatewayEvent =
  | {
      readonly type: "message_received";
      readonly at: number;
      readonly sessionKey: string;
      readonly agentId: string;
      readonly channel: string;
      readonly accountId: string;
      readonly chatId: string;
      readonly messageId: string;
      readonly senderId: string;
    }
  | {
      readonly type: "run_started";
      readonly at: number;
      readonly runId: string;
      readonly sessionKey: string;
      readonly agentId: string;
      readonly parentRunId?: string;
      readonly depth: number;
    }
  | {
      readonly type: "run_ended";
      readonly at: number;
      readonly runId: string;
      readonly sessionKey: string;
      readonly outcome: RunOutcome;
      readonly error?: string;
    }
  | {
      readonly type: "tool_activity";
      readonly at: number;
      readonly runId: string;
      readonly sessionKey: string;
      readonly toolCallId: string;
      readonly toolName: string;
      readonly phase: "start" | "end";
      readonly isError?: boolean;
      /** Set at the end when TACO replaced the output with a summary (seed 002): who summarised, and the sizes. */
      readonly compressed?: { readonly model: string; readonly rawTokens: number; readonly compressedTokens: number };
    }
  | {
      readonly type: "subagent_spawned";
      readonly at: number;
      readonly runId: string;
      readonly parentRunId: string;
      readonly sessionKey: string;
      readonly parentSessionKey: string;
      readonly agentId: string;
      readonly depth: number;
    }
  | {
      readonly type: "subagent_completed";
      readonly at: number;
      readonly runId: string;
      readonly parentRunId: string;
      readonly sessionKey: string;
      readonly outcome: RunOutcome;
    }
  | {
      readonly type: "delivery_failed";
      readonly at: number;
      readonly sessionKey: string;
      readonly channel: string;
      readonly accountId: string;
      readonly chatId: string;
      readonly error: string;
      readonly attempt: number;
      readonly willRetry: boolean;
    };

/** The kinds of gateway event. */
export type GatewayEventType = GatewayEvent["type"];

/** Told to a subscriber in place of events it lost because it fell behind. */
export interface DroppedNotice {
  readonly type: "dropped";
  /** How many events were lost at this point of the stream. */
  readonly count: number;
}

/** What a subscriber receives: events, and a notice wherever events were lost. */
export type BusDelivery = GatewayEvent | DroppedNotice;
