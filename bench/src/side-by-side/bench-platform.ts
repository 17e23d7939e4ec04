import type { RecordedCall } from "@chorus/testkit";
import type { OutboundMessage } from "./reply-ledger.js";

/** A running fake platform as the side-by-side bench drives it. */
export interface BenchPlatform {
  readonly name: "telegram" | "slack";
  readonly label: string;
  /** Injects a DM from user number `chat` (the same number is the same chat every time). */
  inject(chat: number, text: string): Promise<void>;
  /** Where the outbound messages go (one listener; the run being measured sets it). */
  onOutbound(listener: ((message: OutboundMessage) => void) | undefined): void;
  close(): Promise<void>;
}

/** Text of a recorded send or edit: `text`, else the serialised blocks (Slack may carry the text only there). */
export function recordedText(call: RecordedCall): string {
  const body = (call.body ?? {}) as Record<string, unknown>;
  if (typeof body.text === "string" && body.text !== "") return body.text;
  return body.blocks === undefined ? "" : JSON.stringify(body.blocks);
}

/**
 * Watches a fake's call log: `waitFor` calls its predicate for every call as it arrives, so a predicate that
 * never matches is a tap. Contract: `stop` ends the tap (the pending wait's rejection is swallowed).
 */
export function tapCalls(
  waitFor: (predicate: (call: RecordedCall) => boolean, timeoutMs?: number) => Promise<RecordedCall>,
  onCall: (call: RecordedCall) => void,
): void {
  waitFor((call) => {
    onCall(call);
    return false;
  }, 2_147_483_647).catch(() => {});
}
