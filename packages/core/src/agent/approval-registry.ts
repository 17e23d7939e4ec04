import { UnknownApprovalError } from "../errors/agent-errors.js";
import type { ApprovalDecision, ApprovalRequest } from "../policies/policy-types.js";

/** Pending `ask` decisions of an Agent, answered by `approve` / `deny`. */
export class ApprovalRegistry {
  private readonly pending = new Map<string, (decision: ApprovalDecision) => void>();

  /** The `awaitApproval` hook for the loop. Contract: the entry is removed when decided, timed out or aborted. */
  readonly wait = (request: ApprovalRequest): Promise<ApprovalDecision> =>
    new Promise((resolve) => {
      const done = (decision: ApprovalDecision): void => {
        this.pending.delete(request.approvalId);
        request.signal.removeEventListener("abort", onAbort);
        resolve(decision);
      };
      const onAbort = (): void => done({ approved: false, reason: "aborted" });
      this.pending.set(request.approvalId, done);
      request.signal.addEventListener("abort", onAbort, { once: true });
    });

  /** Answers a pending approval. Contract: throws UnknownApprovalError when none is pending under `id`. */
  decide(id: string, decision: ApprovalDecision): void {
    const resolve = this.pending.get(id);
    if (!resolve) throw new UnknownApprovalError(id);
    resolve(decision);
  }

  /** Ids waiting for an answer. */
  ids(): string[] {
    return [...this.pending.keys()];
  }
}
