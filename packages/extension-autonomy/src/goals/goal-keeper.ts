import type { AgentMessage, Model, StreamFn } from "@chorus/core";
import type { GoalConfig, LaneItem, SessionChat, SessionTurnEnd, SessionTurnHooks } from "@chorus/gateway";
import {
  describeError,
  type GatewayLogger,
  isSubagentKey,
  mayAnswerRun,
  type SessionActor,
  sessionChatOf,
} from "@chorus/gateway";
import type { SessionRecord, SessionStore, TrustTier } from "@chorus/store";
import { AutonomousDriver } from "./autonomous-driver.js";
import { lastAnsweredAutonomousTurn } from "./autonomous-prompt.js";
import { signalsCompletion, turnOutputOf } from "./completion-phrase.js";
import type { GoalRequest } from "./goal-command-args.js";
import { controlGoal, type GoalCommandPort, runGoalCommand } from "./goal-commands-runner.js";
import { GoalInferrer } from "./goal-inferrer.js";
import { type GoalRecord, goalOf, isLiveAutonomous } from "./goal-record.js";
import { type GoalChange, GoalStorage, UNCHANGED } from "./goal-storage.js";
import { askSupervisor } from "./goal-supervisor.js";
import { type GoalResumeCause, goalTexts } from "./goal-texts.js";

/** The placeholder an agent's system prompt may hold for the active goal's text. */
export const CURRENT_GOAL_PLACEHOLDER = "{current_goal}";

/** Who runs a goal command. */
export interface GoalCaller {
  readonly sessionKey: string;
  readonly agentId: string;
  readonly senderId: string;
  readonly isAdmin: boolean;
  readonly trust: TrustTier;
}

/** What the keeper needs from the gateway. */
export interface GoalKeeperDeps {
  readonly store: SessionStore;
  readonly logger: GatewayLogger;
  readonly now: () => number;
  readonly streamFn: StreamFn;
  /** An agent's goal settings; undefined for an agent that is not configured (any more). */
  configFor(agentId: string): GoalConfig | undefined;
  /** The model a session's supervisor asks. */
  supervisorModel(session: SessionRecord): Model;
  /** The model the goal inference asks (`goals.inferFromConversation`); default: the supervisor's. */
  inferenceModel?(session: SessionRecord): Model;
  /** Why a session can no longer run turns (its agent or channel is gone); undefined when it can. */
  cannotRun(session: SessionRecord): string | undefined;
  /** Queues a stored message in the session's lane. */
  accept(session: SessionRecord, item: LaneItem & { seq: number }): void;
  /** Stops the session's running turn, if any. */
  stopTurn(sessionKey: string): void;
  /** Takes a prompt still waiting in the session's lane out of it. */
  withdraw(sessionKey: string, message: AgentMessage): void;
  notice(sessionKey: string, chat: SessionChat, text: string): void;
  track(work: Promise<unknown>): void;
}

/**
 * Sessions' goals (seed 002): the lifecycle Idle → Active → Completed kept in each session's settings, completion
 * phrases watched at each turn's end, `{current_goal}` in system prompts that ask for it, and autonomous goals —
 * one `AutonomousDriver` per running goal, resumed once at start, orphaned when their session cannot run.
 * Contract: goal state is only ever read from and written to the session record (it survives restarts); at most one
 * driver per session in this process; completion is told as a status line (a notice), never in the transcript.
 */
export class GoalKeeper implements SessionTurnHooks {
  readonly #deps: GoalKeeperDeps;
  readonly #storage: GoalStorage;
  /** The goal of each session seen, so that a turn's end needs no store read (only this keeper writes goals). */
  readonly #cache = new Map<string, GoalRecord | undefined>();
  readonly #drivers = new Map<string, AutonomousDriver>();
  /**
   * Drivers of sessions this instance lost while their turn was running (`releaseNotOwned`): no longer the session's
   * driver, but that turn's end must still reach them (else they wait for it for good, and so does the shutdown).
   */
  readonly #released = new Set<AutonomousDriver>();
  /** Aborted at shutdown: supervisor checks still under way (also of drivers that ended) are cancelled. */
  readonly #stopping = new AbortController();
  #halted = false;

  readonly #port: GoalCommandPort;
  readonly #inferrer: GoalInferrer;

  constructor(deps: GoalKeeperDeps) {
    this.#deps = deps;
    this.#storage = new GoalStorage(deps.store);
    this.#inferrer = new GoalInferrer({
      logger: deps.logger,
      now: deps.now,
      streamFn: deps.streamFn,
      configFor: (agentId) => deps.configFor(agentId),
      track: (work) => deps.track(work),
      stopping: this.#stopping.signal,
      goal: (key) => this.#goal(key),
      update: (key, change) => this.#update(key, change),
      session: (key) => deps.store.getSession(key),
      model: (session) => (deps.inferenceModel ?? deps.supervisorModel)(session),
    });
    this.#port = {
      now: deps.now,
      goal: (key) => this.#goal(key),
      update: (key, change) => this.#update(key, change),
      session: (key) => deps.store.getSession(key),
      configFor: (agentId) => deps.configFor(agentId),
      cannotRun: (session) => deps.cannotRun(session),
      startDriver: (key, agentId, goal) => this.#startDriver(key, agentId, goal),
      haltDriver: (key, stopTurn) => this.#haltDriver(key, stopTurn),
      ended: (goal, status, note) => this.#ended(goal, status, note),
    };
  }

  /** Sessions with a driver running in this process. */
  get runningDrivers(): number {
    return this.#drivers.size;
  }

  // ── Commands ──────────────────────────────────────────────────────────────

  /** Runs a parsed /goal, /done or /clear. Contract: resolves with the chat's answer; refusals store nothing. */
  command(request: GoalRequest, caller: GoalCaller): Promise<string> {
    // An explicit command wins over an inference under way.
    if (request.kind !== "show") this.#inferrer.invalidate(caller.sessionKey);
    return runGoalCommand(this.#port, request, caller);
  }

  /** Stops, pauses or resumes a session's autonomous goal. Contract: `changed` says whether anything changed. */
  control(action: "stop" | "pause" | "resume", caller: GoalCaller): Promise<{ text: string; changed: boolean }> {
    return controlGoal(this.#port, action, caller);
  }

  /**
   * Whether `actor` may end or pause the session's autonomous goal (/stop, /new): whoever started it, or an admin.
   * Contract: true when no autonomous goal is live there.
   */
  async mayEndAutonomous(sessionKey: string, actor: SessionActor): Promise<boolean> {
    const goal = await this.#goal(sessionKey);
    if (!isLiveAutonomous(goal)) return true;
    return mayAnswerRun(actor, goal?.setBy === undefined ? [] : [goal.setBy]);
  }

  /** /new, /reset: the conversation starts afresh, and the goal goes back to Idle. */
  async sessionReset(sessionKey: string): Promise<void> {
    this.#inferrer.invalidate(sessionKey);
    this.#haltDriver(sessionKey, false);
    if ((await this.#goal(sessionKey)) !== undefined) await this.#update(sessionKey, () => undefined);
  }

  /** /stop: the running autonomous goal pauses (its turn and queue were stopped). */
  async sessionStopped(sessionKey: string): Promise<boolean> {
    const goal = await this.#goal(sessionKey);
    if (goal?.auto?.status !== "running") return false;
    this.#haltDriver(sessionKey, false);
    await this.#update(sessionKey, (current) =>
      current?.id === goal.id && current.auto?.status === "running"
        ? { ...current, auto: this.#ended(current, "paused", "paused by /stop") }
        : UNCHANGED,
    );
    return true;
  }

  /**
   * A budget refused the running autonomous goal's next model call: the goal pauses (no further turn starts) and the
   * chat is told why. Contract: does nothing unless the session's goal is running.
   */
  async budgetExhausted(sessionKey: string, reason: string): Promise<void> {
    const goal = await this.#goal(sessionKey);
    if (goal?.auto?.status !== "running") return;
    this.#haltDriver(sessionKey, false);
    const paused = await this.#update(sessionKey, (current) =>
      current?.id === goal.id && current.auto?.status === "running"
        ? { ...current, auto: this.#ended(current, "paused", `budget exhausted: ${reason}`) }
        : UNCHANGED,
    );
    if (paused?.id === goal.id && paused.auto?.status === "paused") {
      this.#notice(sessionKey, goalTexts.budgetPaused(reason));
    }
  }

  // ── Turn hooks ────────────────────────────────────────────────────────────

  async systemPromptFor(session: { key: string; agentId: string }, base: string | undefined) {
    if (base === undefined || !base.includes(CURRENT_GOAL_PLACEHOLDER)) return undefined;
    const config = this.#deps.configFor(session.agentId);
    const goal = config?.enabled && config.trackInSystemPrompt ? await this.#goal(session.key) : undefined;
    return base.replaceAll(CURRENT_GOAL_PLACEHOLDER, goal?.status === "active" ? goal.text : "");
  }

  turnStarted(start: { readonly sessionKey: string; readonly items: readonly LaneItem[] }): void {
    const driver = this.#drivers.get(start.sessionKey);
    if (driver?.owns(start.items.map((item) => item.message))) driver.turnStarted();
  }

  turnEnded(end: SessionTurnEnd): void {
    const output = turnOutputOf(
      end.result?.messages ?? [],
      end.result === undefined ? "the turn did not start" : end.result.error,
      end.result?.reason === "aborted",
    );
    const messages = end.items.map((item) => item.message);
    const current = this.#drivers.get(end.sessionKey);
    const driver = current?.owns(messages) ? current : [...this.#released].find((one) => one.owns(messages));
    if (driver !== undefined) {
      driver.turnEnded(output);
      return;
    }
    this.#inferrer.turnEnded(end);
    const config = this.#deps.configFor(end.agentId);
    if (config?.enabled !== true || end.result === undefined || !signalsCompletion(output, config.completionPhrases))
      return;
    this.#deps.track(this.#completeByPhrase(end).catch((error: unknown) => this.#failed(end.sessionKey, error)));
  }

  async #completeByPhrase(end: SessionTurnEnd): Promise<void> {
    const goal = await this.#goal(end.sessionKey);
    // An autonomous goal's achievement is the supervisor's call.
    if (goal?.status !== "active" || isLiveAutonomous(goal)) return;
    const done = await this.#update(end.sessionKey, (current) =>
      current?.id === goal.id && current.status === "active"
        ? { ...current, status: "completed", completedAt: this.#deps.now(), completedBy: "phrase" }
        : UNCHANGED,
    );
    // An inferred goal changes quietly (it is shown in /goal and /status): the user never set it.
    if (done?.status === "completed" && done.completedBy === "phrase" && done.id === goal.id && !done.inferred) {
      this.#deps.notice(end.sessionKey, end.chat, goalTexts.completed(done, "the agent said so"));
    }
  }

  // ── Start and stop ────────────────────────────────────────────────────────

  /**
   * At start: each running autonomous goal gets its driver (once: a session with one already is skipped), or is
   * marked orphaned when its session can no longer run. `owns` limits it to the sessions this instance owns (a
   * cluster: another instance resumes the others). Contract: call once channels run.
   */
  async resumeAll(
    owns: (sessionKey: string) => boolean = () => true,
    after: GoalResumeCause = "restart",
  ): Promise<void> {
    if (this.#halted) return;
    for (const session of await this.#deps.store.listSessions()) {
      if (isSubagentKey(session.key) || !owns(session.key)) continue;
      const goal = goalOf(session.settings);
      if (goal?.status !== "active" || goal.auto?.status !== "running" || this.#drivers.has(session.key)) continue;
      this.#cache.set(session.key, goal);
      const reason = this.#deps.cannotRun(session);
      if (reason !== undefined) {
        const orphaned = await this.#update(session.key, (current) =>
          current?.id === goal.id && current.auto?.status === "running"
            ? { ...current, auto: this.#ended(current, "orphaned", reason) }
            : UNCHANGED,
        );
        this.#deps.logger.warn({ sessionKey: session.key, reason }, "autonomous goal orphaned");
        if (orphaned?.auto?.status === "orphaned" && this.#deps.configFor(session.agentId) !== undefined) {
          this.#deps.notice(session.key, sessionChatOf(session), goalTexts.orphaned(goal, reason));
        }
        continue;
      }
      this.#deps.notice(session.key, sessionChatOf(session), goalTexts.autoResumed(goal, after));
      this.#startDriver(session.key, session.agentId, goal);
    }
  }

  /**
   * A cluster instance lost sessions: the drivers of those it no longer owns stop starting turns; their goals stay
   * running in the store, for the new owner to resume (`resumeAll(owns, "takeover")` there).
   */
  releaseNotOwned(owns: (sessionKey: string) => boolean): void {
    for (const [sessionKey, driver] of [...this.#drivers]) {
      if (owns(sessionKey)) continue;
      this.#drivers.delete(sessionKey);
      // A turn under way ends by itself (or is fenced) and is told to the driver then; a prompt only queued was given
      // back with the lane, so its driver ends now.
      const running = driver.turnRunning;
      driver.halt({ keepTurn: running });
      if (running) this.#released.add(driver);
    }
  }

  /**
   * At shutdown: every driver stops starting turns; their goals stay running in the store for the next start. A turn
   * under way that ends by itself is still counted; one the shutdown aborts is not (the next start runs it again).
   * Contract: call `release()` once the lanes are cleared, so that drivers whose turn never started end too.
   */
  halt(): void {
    this.#halted = true;
    this.#stopping.abort();
    for (const driver of this.#drivers.values()) driver.halt({ keepTurn: true });
  }

  /** After `halt()` and the lanes' clearing: drivers still waiting for a turn end now. */
  release(): void {
    for (const driver of [...this.#drivers.values(), ...this.#released]) driver.halt();
  }

  // ── Internals ─────────────────────────────────────────────────────────────

  #startDriver(sessionKey: string, agentId: string, goal: GoalRecord): void {
    const config = this.#deps.configFor(agentId);
    if (this.#halted || config === undefined) return;
    const existing = this.#drivers.get(sessionKey);
    if (existing?.goalId === goal.id && !existing.ended) {
      existing.nudge();
      return;
    }
    existing?.halt();
    const driver = new AutonomousDriver({
      sessionKey,
      goalId: goal.id,
      config,
      now: this.#deps.now,
      read: () => this.#goal(sessionKey),
      update: (change) => this.#update(sessionKey, change),
      enqueue: (message, trust) => this.#enqueue(sessionKey, message, trust),
      supervise: (current, signal) => this.#supervise(sessionKey, current, signal),
      notice: (text) => this.#notice(sessionKey, text),
      abortTurn: () => this.#deps.stopTurn(sessionKey),
      withdraw: (message) => this.#deps.withdraw(sessionKey, message),
      track: this.#deps.track,
      failed: (error) => this.#failed(sessionKey, error),
    });
    this.#drivers.set(sessionKey, driver);
    const run = driver.run().finally(() => {
      if (this.#drivers.get(sessionKey) === driver) this.#drivers.delete(sessionKey);
      this.#released.delete(driver);
    });
    this.#deps.track(run);
  }

  /** Ends a driver; `stopTurn`: its turn too (stopped if running, taken out of the lane if waiting). */
  #haltDriver(sessionKey: string, stopTurn: boolean): void {
    const driver = this.#drivers.get(sessionKey);
    if (driver === undefined) return;
    this.#drivers.delete(sessionKey);
    const running = driver.turnRunning;
    const queued = driver.queuedPrompt;
    driver.halt();
    if (!stopTurn) return;
    if (running) this.#deps.stopTurn(sessionKey);
    else if (queued !== undefined) this.#deps.withdraw(sessionKey, queued);
  }

  /** The autonomous state of a goal that ended (or paused) now. */
  #ended(goal: GoalRecord, status: "stopped" | "paused" | "orphaned", note: string) {
    const auto = goal.auto!;
    return { ...auto, status, note, updatedAt: this.#deps.now() };
  }

  /** A session's goal; read from the store once, then kept (only this keeper writes goals). */
  goalOf(sessionKey: string): Promise<GoalRecord | undefined> {
    return this.#goal(sessionKey);
  }

  async #goal(sessionKey: string): Promise<GoalRecord | undefined> {
    if (this.#cache.has(sessionKey)) return this.#cache.get(sessionKey);
    const goal = await this.#storage.read(sessionKey);
    this.#cache.set(sessionKey, goal);
    return goal;
  }

  async #update(
    sessionKey: string,
    change: (goal: GoalRecord | undefined) => GoalChange,
  ): Promise<GoalRecord | undefined> {
    const goal = await this.#storage.update(sessionKey, change);
    this.#cache.set(sessionKey, goal);
    return goal;
  }

  async #enqueue(sessionKey: string, message: AgentMessage, trust: TrustTier): Promise<void> {
    const { firstSeq } = await this.#deps.store.appendMessages(sessionKey, [message]);
    const session = await this.#deps.store.getSession(sessionKey);
    if (session === undefined) throw new Error(`session ${sessionKey} is gone`);
    this.#deps.accept(session, { message, seq: firstSeq, trust, source: "goal" });
  }

  async #supervise(sessionKey: string, goal: GoalRecord, signal: AbortSignal) {
    const session = await this.#deps.store.getSession(sessionKey);
    if (session === undefined) return { kind: "failed" as const, error: "the session is gone" };
    const config = this.#deps.configFor(session.agentId);
    if (config === undefined) return { kind: "failed" as const, error: `agent ${session.agentId} is not configured` };
    const transcript = (await this.#deps.store.readTranscript(sessionKey)).map((entry) => entry.message);
    const outcome = await askSupervisor({
      streamFn: this.#deps.streamFn,
      model: this.#deps.supervisorModel(session),
      timeoutMs: config.supervisorTimeoutSecs * 1000,
      goal: goal.text,
      transcript,
      sessionKey,
      signal: AbortSignal.any([signal, this.#stopping.signal]),
    });
    const turn = lastAnsweredAutonomousTurn(transcript);
    return outcome.kind === "verdict" && turn !== undefined ? { ...outcome, turn } : outcome;
  }

  #notice(sessionKey: string, text: string): void {
    const posted = this.#deps.store.getSession(sessionKey).then(
      (session) => {
        if (session !== undefined) this.#deps.notice(sessionKey, sessionChatOf(session), text);
      },
      (error: unknown) => this.#failed(sessionKey, error),
    );
    this.#deps.track(posted);
  }

  #failed(sessionKey: string, error: unknown): void {
    this.#deps.logger.error({ sessionKey, error: describeError(error) }, "goal work failed");
  }
}
