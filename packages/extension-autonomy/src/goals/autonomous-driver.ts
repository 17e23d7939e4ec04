import { createHash } from "node:crypto";
import { type AgentMessage, abortableSleep } from "@chorus/core";
import type { GoalConfig } from "@chorus/gateway";
import type { TrustTier } from "@chorus/store";
import { autonomousPrompt } from "./autonomous-prompt.js";
import type { TurnOutput } from "./completion-phrase.js";
import type { AutonomousState, GoalRecord } from "./goal-record.js";
import type { GoalChange } from "./goal-storage.js";
import { UNCHANGED } from "./goal-storage.js";
import type { SupervisorOutcome } from "./goal-supervisor.js";
import { goalTexts } from "./goal-texts.js";

/** What a driver needs, bound to its session. */
export interface AutonomousDriverDeps {
  readonly sessionKey: string;
  readonly goalId: string;
  readonly config: GoalConfig;
  readonly now: () => number;
  /** Reads the session's goal. */
  read(): Promise<GoalRecord | undefined>;
  /** Changes the session's goal (merged into its settings, one write at a time). */
  update(change: (goal: GoalRecord | undefined) => GoalChange): Promise<GoalRecord | undefined>;
  /** Stores a prompt in the transcript and queues it in the session's lane; resolves once queued. */
  enqueue(message: AgentMessage, trust: TrustTier): Promise<void>;
  /** Asks the supervisor about the goal, from the stored transcript; `signal` cancels the call. */
  supervise(goal: GoalRecord, signal: AbortSignal): Promise<SupervisorOutcome>;
  /** A status line in the session's chat. */
  notice(text: string): void;
  /** Stops the session's running turn (only called while this driver's turn runs). */
  abortTurn(): void;
  /** Takes this driver's prompt out of the session's lane (only called while it waits there). */
  withdraw(message: AgentMessage): void;
  /** Registers background work (supervisor calls) the gateway's `idle()` waits for. */
  track(work: Promise<unknown>): void;
  /** Logs a failure of the driver itself. */
  failed(error: unknown): void;
}

/**
 * Runs one autonomous goal: a turn, the delay, the next turn, each turn a stored prompt queued in the session's lane
 * (so it is stored, answered, committed and delivered like any message, and the queue mode decides what a user's
 * message does meanwhile). Ends at the turn limit, after `maxStuckCount` identical outputs, or when the goal is no
 * longer running (achieved, stopped, paused — by a command or the supervisor). The supervisor is asked every
 * `verifyInterval` turns without the driver waiting for it; a failed check is retried at the next turn's end.
 * Contract: state lives in the session's goal record, written after each turn; `halt()` ends the loop without
 * changing it (a restart resumes it); a turn cut short by a halt is not counted, so its resumed run redoes it.
 */
export class AutonomousDriver {
  readonly #deps: AutonomousDriverDeps;
  readonly #halt = new AbortController();
  #pending: { message: AgentMessage; resolve: (output: TurnOutput | undefined) => void } | undefined;
  #verifying = false;
  /** A check failed: the next turn's end checks again, due or not. */
  #verifyDue = false;
  /** A turn ended while a check was under way: check again, on the newer turn, as soon as that one is done. */
  #recheck = false;
  /** Set by `nudge()`: the goal was resumed while this driver was about to end. */
  #nudged = false;
  #ended = false;
  /** This driver's turn is running (not only queued). */
  #turnRunning = false;

  constructor(deps: AutonomousDriverDeps) {
    this.#deps = deps;
  }

  get goalId(): string {
    return this.#deps.goalId;
  }

  /** This driver's prompt waiting in the lane (queued, its turn not started), if any. */
  get queuedPrompt(): AgentMessage | undefined {
    return this.#turnRunning ? undefined : this.#pending?.message;
  }

  /** Whether this driver's turn is running. */
  get turnRunning(): boolean {
    return this.#turnRunning && this.#pending !== undefined;
  }

  /** Whether a turn's items include this driver's prompt. */
  owns(messages: readonly AgentMessage[]): boolean {
    const pending = this.#pending;
    return pending !== undefined && messages.includes(pending.message);
  }

  /** The turn carrying this driver's prompt started. */
  turnStarted(): void {
    this.#turnRunning = true;
  }

  /** The turn carrying this driver's prompt ended. */
  turnEnded(output: TurnOutput): void {
    this.#turnRunning = false;
    const pending = this.#pending;
    this.#pending = undefined;
    pending?.resolve(output);
  }

  /** Whether the loop has ended (a resumed goal then needs a new driver). */
  get ended(): boolean {
    return this.#ended;
  }

  /** The goal runs again (resumed while this driver was finishing its turn): it goes on instead of ending. */
  nudge(): void {
    this.#nudged = true;
  }

  /**
   * Ends the loop (gateway stopping, goal stopped or cleared). The turn under way is not waited for, unless
   * `keepTurn` (shutdown): then a turn that ends by itself is counted before the loop ends.
   */
  halt(options: { keepTurn?: boolean } = {}): void {
    this.#halt.abort();
    if (options.keepTurn === true) return;
    const pending = this.#pending;
    this.#pending = undefined;
    pending?.resolve(undefined);
  }

  /** The loop. Contract: never rejects; resolves when it ends. */
  async run(): Promise<void> {
    try {
      while (!this.#halt.signal.aborted) {
        this.#nudged = false;
        const goal = await this.#deps.read();
        const auto = this.#running(goal);
        if (goal === undefined || auto === undefined) {
          if (this.#nudged) continue;
          return;
        }
        if (auto.turns >= auto.maxTurns) {
          await this.#end(goal, "turn-limit");
          return;
        }
        const output = await this.#turn(goal, auto.turns + 1, auto.maxTurns, auto.trust);
        if (output === undefined) return;
        // A turn the shutdown aborted is not counted (the next start runs it again), nor one stopped because the
        // goal was achieved meanwhile.
        if (output.aborted && (this.#halt.signal.aborted || this.#running(await this.#deps.read()) === undefined)) {
          return;
        }
        const after = await this.#count(output);
        if (this.#running(after) === undefined && !this.#nudged) return;
        if (!(await abortableSleep(this.#deps.config.autonomousTurnDelayMs, this.#halt.signal))) return;
      }
    } catch (error) {
      this.#deps.failed(error);
      // Not left "running" with no driver: paused, so /goal resume can try again.
      const note = `the driver failed: ${error instanceof Error ? error.message : String(error)}`;
      await this.#deps
        .update((current) =>
          current?.id === this.#deps.goalId && current.auto?.status === "running"
            ? { ...current, auto: { ...current.auto, status: "paused", note, updatedAt: this.#deps.now() } }
            : UNCHANGED,
        )
        .catch((failure: unknown) => this.#deps.failed(failure));
    } finally {
      this.#ended = true;
    }
  }

  /** The goal's autonomous state when this driver's goal is running. */
  #running(goal: GoalRecord | undefined): AutonomousState | undefined {
    if (goal?.id !== this.#deps.goalId || goal.status !== "active") return undefined;
    return goal.auto?.status === "running" ? goal.auto : undefined;
  }

  async #turn(goal: GoalRecord, turn: number, maxTurns: number, trust: TrustTier): Promise<TurnOutput | undefined> {
    const message: AgentMessage = {
      role: "user",
      content: autonomousPrompt(goal, turn, maxTurns),
      timestamp: this.#deps.now(),
    };
    const ended = new Promise<TurnOutput | undefined>((resolve) => {
      this.#pending = { message, resolve };
    });
    await this.#deps.enqueue(message, trust);
    return ended;
  }

  /** Counts a finished turn: repeats, the turn limit, and whether the supervisor is due. */
  async #count(output: TurnOutput): Promise<GoalRecord | undefined> {
    const { config } = this.#deps;
    const hash = createHash("sha256").update(output.text).digest("hex").slice(0, 16);
    let ending: "stuck" | "turn-limit" | undefined;
    const goal = await this.#deps.update((current) => {
      const auto = current?.id === this.#deps.goalId ? current.auto : undefined;
      if (current === undefined || auto === undefined) return UNCHANGED;
      const stuckCount = auto.lastOutputHash === hash ? auto.stuckCount + 1 : 0;
      const turns = auto.turns + 1;
      let status = auto.status;
      if (status === "running" && stuckCount + 1 >= config.maxStuckCount) status = ending = "stuck";
      else if (status === "running" && turns >= auto.maxTurns) status = ending = "turn-limit";
      return {
        ...current,
        auto: { ...auto, turns, stuckCount, lastOutputHash: hash, status, updatedAt: this.#deps.now() },
      };
    });
    const auto = goal?.id === this.#deps.goalId ? goal.auto : undefined;
    if (goal === undefined || auto === undefined) return goal;
    if (ending === "stuck") this.#deps.notice(goalTexts.stuck(goal, config.maxStuckCount));
    else if (ending === "turn-limit") this.#deps.notice(goalTexts.turnLimit(goal));
    // The last turn is judged too: an achieved verdict beats the turn limit.
    // No new check while the gateway stops: it would hold the shutdown for up to supervisorTimeoutSecs.
    const due = auto.turns % config.verifyInterval === 0 || this.#verifyDue;
    if (ending !== "stuck" && due && !this.#halt.signal.aborted) this.#verify(goal);
    return goal;
  }

  /** Starts a supervisor check unless one is under way (then the next turn's end checks again). */
  #verify(goal: GoalRecord): void {
    if (this.#verifying) {
      this.#recheck = true;
      return;
    }
    this.#verifying = true;
    this.#verifyDue = false;
    this.#recheck = false;
    const work = this.#check(goal)
      .catch((error: unknown) => this.#deps.failed(error))
      .finally(() => {
        this.#verifying = false;
      })
      .then(() => this.#recheckIfAsked())
      .catch((error: unknown) => this.#deps.failed(error));
    this.#deps.track(work);
  }

  async #check(goal: GoalRecord): Promise<void> {
    const outcome = await this.#deps.supervise(goal, this.#halt.signal);
    // A halted driver's goal is left as it is; a check cut short by a shutdown is no failure, and not asked again.
    if (this.#halt.signal.aborted || outcome.kind === "cancelled") {
      this.#recheck = false;
      return;
    }
    // The turn the supervisor read up to: later turns may have ended while it was being asked.
    await this.#judged(outcome, (outcome.kind === "verdict" ? outcome.turn : undefined) ?? goal.auto?.turns ?? 0);
  }

  /** The turns that ended during a check are judged now (not at the next turn's end, which may be far off). */
  async #recheckIfAsked(): Promise<void> {
    if (!this.#recheck || this.#halt.signal.aborted || this.#verifyDue) return;
    this.#recheck = false;
    const goal = await this.#deps.read();
    const auto = goal?.id === this.#deps.goalId && goal.status === "active" ? goal.auto : undefined;
    if (goal !== undefined && (auto?.status === "running" || auto?.status === "turn-limit")) this.#verify(goal);
  }

  async #judged(outcome: Exclude<SupervisorOutcome, { kind: "cancelled" }>, turn: number): Promise<void> {
    const { config, now } = this.#deps;
    let event: "achieved" | "paused" | undefined;
    const goal = await this.#deps.update((current) => {
      const auto = current?.id === this.#deps.goalId ? current.auto : undefined;
      if (current === undefined || auto === undefined || current.status !== "active") return UNCHANGED;
      const judgeable = auto.status === "running" || auto.status === "turn-limit" || auto.status === "paused";
      if (!judgeable) return UNCHANGED;
      const at = now();
      if (outcome.kind === "failed") {
        const supervisorFails = auto.supervisorFails + 1;
        const pause = auto.status === "running" && supervisorFails >= config.maxSupervisorFails;
        if (pause) event = "paused";
        else this.#verifyDue = true;
        return {
          ...current,
          auto: {
            ...auto,
            supervisorFails,
            status: pause ? "paused" : auto.status,
            note: `the supervisor failed: ${outcome.error}`,
            updatedAt: at,
          },
        };
      }
      const lastVerdict = { achieved: outcome.achieved, reason: outcome.reason, turn, at };
      if (!outcome.achieved) {
        return { ...current, auto: { ...auto, supervisorFails: 0, lastVerdict, updatedAt: at } };
      }
      event = "achieved";
      return {
        ...current,
        status: "completed",
        completedAt: at,
        completedBy: "supervisor",
        auto: { ...auto, status: "achieved", supervisorFails: 0, lastVerdict, updatedAt: at },
      };
    });
    if (goal === undefined) return;
    if (event === "achieved") {
      // The next turn may be under way or waiting already (the driver never waits for the supervisor): not needed.
      const queued = this.queuedPrompt;
      if (this.turnRunning) this.#deps.abortTurn();
      else if (queued !== undefined) {
        this.#deps.withdraw(queued);
        this.halt();
      }
      this.#deps.notice(goalTexts.completed(goal, `the supervisor: ${goal.auto?.lastVerdict?.reason ?? "achieved"}`));
    } else if (event === "paused" && outcome.kind === "failed") {
      this.#deps.notice(goalTexts.supervisorPaused(goal.auto?.supervisorFails ?? 0, outcome.error));
    }
  }

  async #end(goal: GoalRecord, status: "turn-limit"): Promise<void> {
    const ended = await this.#deps.update((current) => {
      const auto = current?.id === this.#deps.goalId ? current.auto : undefined;
      if (current === undefined || auto?.status !== "running") return UNCHANGED;
      return { ...current, auto: { ...auto, status, updatedAt: this.#deps.now() } };
    });
    if (ended?.auto?.status === status) this.#deps.notice(goalTexts.turnLimit(goal));
  }
}
