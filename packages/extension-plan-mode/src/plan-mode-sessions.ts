import type { OutboundButton } from "@chorus/gateway";
import { mayAnswerRun, type RunAnswerBy } from "@chorus/gateway";
import type { TrustTier } from "@chorus/store";

/**
 * The user's answer to a proposed plan; `trust` is the answerer's tier (absent for the gateway's own answers: plan
 * mode switched off, a newer plan, an abort), which the run drops to before it reads the answer.
 */
export type PlanDecision =
  | { readonly approved: true; readonly trust?: TrustTier }
  | { readonly approved: false; readonly feedback?: string; readonly trust?: TrustTier };

/** The outcome of an answer to a session's plan. */
export type PlanAnswerOutcome = "answered" | "no-plan" | "not-allowed";

interface WaitingPlan {
  /** Who started the run that proposed the plan: they (and admins) may answer it. */
  readonly starterIds: readonly string[];
  readonly resolve: (decision: PlanDecision) => void;
}

/**
 * How a plan reaches the chat: Markdown and, where the platform has them, buttons carrying `/plan …` commands. The
 * shower adds how to answer (it knows whether the chat has buttons).
 */
export type ShowPlan = (sessionKey: string, text: string, buttons: readonly OutboundButton[]) => Promise<void>;

/** Buttons under a proposed plan (each carries the command it runs). */
export const PLAN_BUTTONS: readonly OutboundButton[] = [
  { id: "/plan approve", label: "Approve" },
  { id: "/plan reject", label: "Reject" },
];

/** The plan a session in plan mode proposed last: waiting for the answer, or rejected (the model revises it). */
export type ProposedPlan =
  | { readonly text: string; readonly state: "waiting" }
  | { readonly text: string; readonly state: "rejected"; readonly feedback?: string };

/**
 * Which sessions are in plan mode (seed 003 step 12) and the plan each one waits on. In memory: plan mode ends with
 * a restart. Contract: a session leaves plan mode only by `leave` or an approved plan.
 */
export class PlanModeSessions {
  readonly #active = new Set<string>();
  readonly #waiting = new Map<string, WaitingPlan>();
  /** The last plan each session in plan mode proposed (brought back after a compaction). */
  readonly #proposed = new Map<string, ProposedPlan>();
  readonly #show: ShowPlan;

  constructor(show: ShowPlan) {
    this.#show = show;
  }

  enter(sessionKey: string): void {
    this.#active.add(sessionKey);
  }

  /** Leaves plan mode; a plan still waiting is rejected. */
  leave(sessionKey: string): void {
    this.#active.delete(sessionKey);
    this.answer(sessionKey, { approved: false, feedback: "plan mode was switched off" });
    this.#proposed.delete(sessionKey);
  }

  /** The plan the session proposed last, while it is in plan mode; undefined otherwise. */
  proposedPlan(sessionKey: string): ProposedPlan | undefined {
    return this.#active.has(sessionKey) ? this.#proposed.get(sessionKey) : undefined;
  }

  isActive(sessionKey: string): boolean {
    return this.#active.has(sessionKey);
  }

  /** Whether a proposed plan waits for the user. */
  isWaiting(sessionKey: string): boolean {
    return this.#waiting.has(sessionKey);
  }

  /**
   * Shows a plan and waits for the answer of one of `starterIds` (who started the run) or an admin; approval leaves
   * plan mode. Contract: an abort resolves as a rejection without feedback; a newer plan of the same session replaces
   * (rejects) the older one.
   */
  async propose(
    sessionKey: string,
    plan: string,
    signal: AbortSignal,
    starterIds: readonly string[] = [],
  ): Promise<PlanDecision> {
    this.answer(sessionKey, { approved: false, feedback: "a newer plan replaced it" });
    this.#proposed.set(sessionKey, { text: plan, state: "waiting" });
    const decision = new Promise<PlanDecision>((resolve) => {
      const onAbort = (): void => {
        this.answer(sessionKey, { approved: false });
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.#waiting.set(sessionKey, {
        starterIds,
        resolve: (answer) => {
          signal.removeEventListener("abort", onAbort);
          resolve(answer);
        },
      });
    });
    await this.#show(sessionKey, `**Proposed plan**\n\n${plan}`, PLAN_BUTTONS);
    return decision;
  }

  /**
   * Answers the waiting plan: `by` (a person) must have started its run or be an admin; without `by` the gateway
   * answers itself. Contract: "no-plan" when no plan waits; "not-allowed" changes nothing.
   */
  answer(sessionKey: string, decision: PlanDecision, by?: RunAnswerBy): PlanAnswerOutcome {
    const waiting = this.#waiting.get(sessionKey);
    if (waiting === undefined) return "no-plan";
    if (by !== undefined && !mayAnswerRun(by, waiting.starterIds)) return "not-allowed";
    this.#waiting.delete(sessionKey);
    const proposed = this.#proposed.get(sessionKey);
    if (decision.approved) {
      this.#active.delete(sessionKey);
      this.#proposed.delete(sessionKey);
    } else if (proposed !== undefined) {
      const feedback = decision.feedback === undefined ? {} : { feedback: decision.feedback };
      this.#proposed.set(sessionKey, { text: proposed.text, state: "rejected", ...feedback });
    }
    waiting.resolve(by === undefined ? decision : { ...decision, trust: by.trust });
    return "answered";
  }
}
