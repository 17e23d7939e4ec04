import type { InboundMessage } from "@chorus/channel";
import { isMessageNotStored, type MessageNotStoredError } from "@chorus/channel";
import { describeError, type GatewayLogger } from "../logging/gateway-logger.js";
import { type InboundTrace, startInboundTrace } from "../telemetry/inbound-trace.js";
import type { GatewayTelemetryOptions } from "../telemetry/telemetry-options.js";

/** What the channel sink needs: the intake, and the gateway's log, tracking and telemetry settings. */
export interface InboundSinkParts {
  readonly intake: { handle(message: InboundMessage, trace: InboundTrace, draining: boolean): Promise<void> };
  readonly logger: GatewayLogger;
  readonly track: (work: Promise<unknown>) => void;
  readonly telemetry: GatewayTelemetryOptions | undefined;
}

/**
 * Hands one inbound message to the intake under its trace. Contract: rejects only with `MessageNotStoredError` (the
 * channel answers its platform's retry signal); any other failure is logged.
 */
export async function receiveInbound(
  parts: InboundSinkParts,
  message: InboundMessage,
  draining: boolean,
): Promise<void> {
  const trace = startInboundTrace(message, parts.telemetry?.sessionKeys);
  let refused: MessageNotStoredError | undefined;
  const work = parts.intake.handle(message, trace, draining).then(
    () => trace.intakeDone(),
    (error: unknown) => {
      trace.intakeDone();
      if (isMessageNotStored(error)) {
        refused = error;
        parts.logger.warn(
          { channel: message.channel, eventId: message.eventId, error: describeError(error.cause) },
          "message not stored: the platform is asked to deliver it again",
        );
        return;
      }
      parts.logger.error(
        { channel: message.channel, eventId: message.eventId, error: describeError(error) },
        "inbound failed",
      );
    },
  );
  parts.track(work);
  await work;
  if (refused !== undefined) throw refused;
}
