import type { SubagentResult, SubagentRunRecord } from "./subagent-types.js";

/**
 * Hands background results to the host and keeps the ones whose delivery failed, so that a
 * result is never silently lost (OpenClaw's users report lost announcements).
 */
export class ResultDelivery {
  private readonly pending = new Map<string, { record: SubagentRunRecord; result: SubagentResult }>();

  constructor(private readonly deliverFn?: (parentRunId: string, result: SubagentResult) => void | Promise<void>) {}

  /** Delivers once; on failure records the error on the run record and keeps the result. Never rejects. */
  async deliver(record: SubagentRunRecord, result: SubagentResult): Promise<void> {
    if (!this.deliverFn) return;
    try {
      await this.deliverFn(record.parentRunId, result);
      record.delivered = true;
      delete record.deliveryError;
      this.pending.delete(record.runId);
    } catch (error) {
      record.delivered = false;
      record.deliveryError = error instanceof Error ? error.message : String(error);
      this.pending.set(record.runId, { record, result });
    }
  }

  /** Retries every kept result. Contract: returns how many were delivered this time. */
  async redeliver(): Promise<number> {
    let delivered = 0;
    for (const { record, result } of [...this.pending.values()]) {
      await this.deliver(record, result);
      if (record.delivered) delivered++;
    }
    return delivered;
  }
}
