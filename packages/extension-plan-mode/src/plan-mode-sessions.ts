import type { OutboundButton } from "@chorus/gateway";
import { mayAnswerRun, type RunAnswerBy } from "@chorus/gateway";
import type { TrustTier } from "@chorus/store";
import { NO_PLAN_MODE_STORAGE, type PlanModeState, type PlanModeStorage } from "./stored-plan-mode.js";

/**
 * The user's answer to a proposed plan; `trust` is the answerer's tier (absent for the gateway's own answers: plan
 * mode switched off, a newer plan), which the run drops to before it reads the answer. `stopped`: the run stopped
 * before anyone answered (the plan still waits).
 */
export type PlanDecision =
  | { readonly approved: true; readonly trust?: TrustTier }
  | { readonly approved: false; readonly feedback?: string; readonly trust?: TrustTier; readonly stopped?: true };

/**
 * The outcome of an answer to a session's plan: `answered` reached the run that waits for it; `answered-later` was
 * stored, but the run that proposed the plan is gone (a restart, a takeover, `/stop`): a new turn must hear it.
 */
export type PlanAnswerOutcome = "answered" | "answered-later" | "no-plan" | "not-allowed";

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
 * Which sessions are in plan mode (seed 003 step 12) and the plan each one proposed, kept in `storage` (the session's
 * settings) so that both outlive a restart and move with the session to another owner; a run waiting for its plan's
 * answer is in memory only. Reads are synchronous (the gate, the reminder, each model call): a session's state is
 * loaded first (`load`, or `hydrate` from the settings its Agent is built with) and forgotten with its Agent.
 * Contract: a session leaves plan mode only by `leave` or an approved plan; every change is stored in order
 * (`settled` resolves once it is).
 */
export class PlanModeSessions {
  /** Each loaded session's plan mode (undefined: off). A session missing here is not loaded (read as off). */
  readonly #states = new Map<string, PlanModeState | undefined>();
  readonly #waiting = new Map<string, WaitingPlan>();
  /** Each session's stores still under way, chained in order. */
  readonly #writes = new Map<string, Promise<void>>();
  readonly #show: ShowPlan;
  readonly #storage: PlanModeStorage;

  constructor(show: ShowPlan, storage: PlanModeStorage = NO_PLAN_MODE_STORAGE) {
    this.#show = show;
    this.#storage = storage;
  }

  /** Reads the session's plan mode from storage unless it is loaded already. */
  async load(sessionKey: string): Promise<void> {
    if (this.#states.has(sessionKey)) return;
    const state = await this.#storage.load(sessionKey);
    if (!this.#states.has(sessionKey)) this.#states.set(sessionKey, state);
  }

  /**
   * Takes the session's plan mode as its stored settings say (its Agent is being built: the first turn, after idle,
   * a restart or a takeover). Ignored while a change of this instance is still being stored or a run waits here.
   */
  hydrate(sessionKey: string, state: PlanModeState | undefined): void {
    if (this.#writes.has(sessionKey) || this.#waiting.has(sessionKey)) return;
    this.#states.set(sessionKey, state);
  }

  /** Forgets a session's loaded state (its Agent was let go, or another instance owns it now); storage keeps it. */
  forget(sessionKey: string): void {
    if (this.#writes.has(sessionKey) || this.#waiting.has(sessionKey)) return;
    this.#states.delete(sessionKey);
  }

  /** Forgets every loaded session `which` picks out (e.g. those another instance owns now). */
  forgetWhere(which: (sessionKey: string) => boolean): void {
    for (const sessionKey of [...this.#states.keys()]) if (which(sessionKey)) this.forget(sessionKey);
  }

  enter(sessionKey: string): void {
    if (this.isActive(sessionKey)) return;
    this.#set(sessionKey, {});
  }

  /** Leaves plan mode; a plan still waiting is rejected. Returns whether a run here waited for it. */
  leave(sessionKey: string): boolean {
    const outcome = this.answer(sessionKey, { approved: false, feedback: "plan mode was switched off" });
    this.#set(sessionKey, undefined);
    return outcome === "answered";
  }

  /** The plan the session proposed last, while it is in plan mode; undefined otherwise. */
  proposedPlan(sessionKey: string): ProposedPlan | undefined {
    const plan = this.#states.get(sessionKey)?.plan;
    if (plan === undefined) return undefined;
    if (plan.state === "waiting") return { text: plan.text, state: "waiting" };
    return { text: plan.text, state: "rejected", ...(plan.feedback === undefined ? {} : { feedback: plan.feedback }) };
  }

  isActive(sessionKey: string): boolean {
    return this.#states.get(sessionKey) !== undefined;
  }

  /** Whether a proposed plan waits for the user (its run may be gone: then a new turn hears the answer). */
  isWaiting(sessionKey: string): boolean {
    return this.#waiting.has(sessionKey) || this.#states.get(sessionKey)?.plan?.state === "waiting";
  }

  /** Resolves once every change of the session made so far is stored (rejects when the last one failed). */
  settled(sessionKey: string): Promise<void> {
    return this.#writes.get(sessionKey) ?? Promise.resolve();
  }

  /**
   * Stores and shows a plan and waits for the answer of one of `starterIds` (who started the run) or an admin;
   * approval leaves plan mode. Contract: an abort resolves as `stopped` and the stored plan still waits (a later
   * answer starts a new turn); a newer plan of the same session replaces (rejects) the older one.
   */
  async propose(
    sessionKey: string,
    plan: string,
    signal: AbortSignal,
    starterIds: readonly string[] = [],
  ): Promise<PlanDecision> {
    this.answer(sessionKey, { approved: false, feedback: "a newer plan replaced it" });
    this.#set(sessionKey, { plan: { text: plan, state: "waiting", starterIds } });
    const decision = new Promise<PlanDecision>((resolve) => {
      const onAbort = (): void => {
        this.#waiting.delete(sessionKey);
        resolve({ approved: false, stopped: true });
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
    // Stored before it is shown: whoever sees it can answer it after a restart too. A failed write is the storage's
    // to report; the plan is shown and waits here all the same.
    await this.settled(sessionKey).catch(() => undefined);
    await this.#show(sessionKey, `**Proposed plan**\n\n${plan}`, PLAN_BUTTONS);
    return decision;
  }

  /**
   * Answers the waiting plan: `by` (a person) must have started its run or be an admin; without `by` the gateway
   * answers itself. Contract: "no-plan" when no plan waits; "not-allowed" changes nothing; "answered-later" when no
   * run waits for it here any more (the answer is stored; the caller starts a turn that hears it). A waiting run hears
   * the answer once it is stored.
   */
  answer(sessionKey: string, decision: PlanDecision, by?: RunAnswerBy): PlanAnswerOutcome {
    const waiting = this.#waiting.get(sessionKey);
    const plan = this.#states.get(sessionKey)?.plan;
    const stored = plan?.state === "waiting" ? plan : undefined;
    if (waiting === undefined && stored === undefined) return "no-plan";
    if (by !== undefined && !mayAnswerRun(by, waiting?.starterIds ?? stored?.starterIds ?? [])) return "not-allowed";
    if (decision.approved) this.#set(sessionKey, undefined);
    else if (plan !== undefined) {
      const feedback = decision.feedback === undefined ? {} : { feedback: decision.feedback };
      this.#set(sessionKey, { plan: { text: plan.text, state: "rejected", starterIds: plan.starterIds, ...feedback } });
    }
    if (waiting === undefined) return "answered-later";
    this.#waiting.delete(sessionKey);
    // The run goes on once the answer is stored (a crash after it acted never finds the plan waiting again).
    const answer = by === undefined ? decision : { ...decision, trust: by.trust };
    void this.settled(sessionKey)
      .catch(() => undefined)
      .then(() => waiting.resolve(answer));
    return "answered";
  }

  /** Changes the session's state here and stores it after the changes before it. */
  #set(sessionKey: string, state: PlanModeState | undefined): void {
    this.#states.set(sessionKey, state);
    const before = this.#writes.get(sessionKey) ?? Promise.resolve();
    // Each write stores the state as it is when its turn comes: the newest change wins.
    const write: Promise<void> = before
      .catch(() => undefined)
      .then(() => this.#storage.save(sessionKey, this.#states.get(sessionKey)))
      .finally(() => {
        if (this.#writes.get(sessionKey) === write) this.#writes.delete(sessionKey);
      });
    this.#writes.set(sessionKey, write);
    // The caller awaits `settled` when it needs the write; an unawaited failure must not be unhandled.
    write.catch(() => undefined);
  }
}
