import { randomUUID } from "node:crypto";
import type { AgentMessage, Usage } from "@chorus/core";
import type { GatewayLogger, LaneItem, SessionTurnEnd } from "@chorus/gateway";
import type { ScheduleRecord, SessionRecord, SessionStore, Spend } from "@chorus/store";
import type { NewScheduleRequest } from "./schedule-command-args.js";
import { describeSpec, nextRunOf, runsDueBetween, type ScheduleData } from "./schedule-spec.js";
import { readStoredSchedule } from "./stored-schedule.js";

/** What the scheduler is wired to. */
export interface SchedulerDeps {
  readonly store: SessionStore;
  readonly logger: GatewayLogger;
  readonly now: () => number;
  /** Queues a stored prompt in a session's lane, as a message from `senderId` (admins' trust). */
  accept(session: SessionRecord, message: AgentMessage, seq: number, senderId: string): void;
  /** Starts the session's conversation afresh, as /new does. */
  freshSession(sessionKey: string): Promise<void>;
  /** A status line in a session's chat. */
  notice(session: SessionRecord, text: string): void;
  /** Whether this gateway runs that session's turns (a cluster's owner); absent: every session is its own. */
  readonly owns?: (sessionKey: string) => boolean;
}

/** Who asked for a schedule, and where. */
export interface ScheduleCaller {
  readonly sessionKey: string;
  readonly agentId: string;
  readonly senderId: string;
}

/** One schedule as /agents and /schedule list show it. */
export interface ScheduleEntry {
  readonly id: string;
  readonly status: ScheduleRecord["status"];
  readonly nextRunAt?: number;
  readonly data: ScheduleData;
}

/**
 * The gateway's schedules (`/schedule`): each due run stores its prompt in the target session and queues it like a
 * message from the schedule's owner. A run is recorded (run count, next run) before its prompt is queued, so a crash
 * never runs it twice; runs missed while the gateway was down are reported once to the owner, not run.
 * Contract: `runDue` is called by the gateway's timer (and by tests after moving the clock); calls never overlap.
 */
export class Scheduler {
  readonly #deps: SchedulerDeps;
  /** Prompts queued and not yet ended → their schedule. */
  readonly #pending = new Map<AgentMessage, string>();
  #running: Promise<number> | undefined;
  /** Stored schedules already reported as unreadable (each is logged once, not on every tick). */
  readonly #unreadable = new Set<string>();

  constructor(deps: SchedulerDeps) {
    this.#deps = deps;
  }

  /** Stores a new schedule. Contract: resolves with the chat's answer; a refusal stores nothing. */
  async create(request: NewScheduleRequest, caller: ScheduleCaller): Promise<string> {
    const sessionKey = request.sessionKey ?? caller.sessionKey;
    const target = await this.#deps.store.getSession(sessionKey);
    if (target === undefined) return `No session "${sessionKey}": name one listed by /agents sessions <agent>.`;
    const now = this.#deps.now();
    const nextRunAt = nextRunOf(request.spec, now, now);
    if (nextRunAt === undefined) return "That schedule would never run.";
    const data: ScheduleData = {
      spec: request.spec,
      prompt: request.prompt,
      agentId: target.agentId,
      sessionKey,
      fresh: request.fresh,
      ownerId: caller.senderId,
      ownerSessionKey: caller.sessionKey,
      runs: 0,
      spentTokens: 0,
      spentCost: 0,
    };
    const id = `s-${randomUUID().slice(0, 8)}`;
    await this.#deps.store.putSchedule({
      id,
      status: "active",
      nextRunAt,
      data: stored(data),
      createdAt: now,
      updatedAt: now,
    });
    return (
      `⏰ Schedule ${id} created: ${describeSpec(request.spec)} → \`${sessionKey}\`${request.fresh ? " (a new conversation each run)" : ""}. ` +
      `Next run ${new Date(nextRunAt).toISOString()}. /schedule stop ${id} ends it.`
    );
  }

  /** Every schedule, oldest first. */
  async entries(): Promise<ScheduleEntry[]> {
    const entries: ScheduleEntry[] = [];
    for (const record of await this.#deps.store.listSchedules()) {
      const data = this.#read(record);
      if (data === undefined) continue;
      entries.push({
        id: record.id,
        status: record.status,
        ...(record.nextRunAt === undefined ? {} : { nextRunAt: record.nextRunAt }),
        data,
      });
    }
    return entries;
  }

  /** Stops a schedule for good. Contract: resolves with the chat's answer. */
  async stop(id: string): Promise<string> {
    const record = await this.#deps.store.getSchedule(id);
    if (record === undefined) return `No schedule "${id}" (see /schedule list).`;
    if (record.status !== "active") return `Schedule ${id} is already ${record.status}.`;
    const { nextRunAt: _next, ...rest } = record;
    await this.#deps.store.putSchedule({ ...rest, status: "stopped", updatedAt: this.#deps.now() });
    return `⏹ Schedule ${id} stopped.`;
  }

  /**
   * At start: each active schedule whose runs fell due while the gateway was down is told to its owner once (how many,
   * none of them run) and moved to its next run after now; a missed one-off ends. Contract: call once, before `runDue`.
   */
  async reportMissed(): Promise<void> {
    const now = this.#deps.now();
    for (const record of await this.#deps.store.listSchedules({ status: "active" })) {
      const data = this.#read(record);
      if (record.nextRunAt === undefined || record.nextRunAt >= now) continue;
      if (data === undefined || !this.#owns(data.sessionKey)) continue;
      const missed = runsDueBetween(data.spec, record.nextRunAt, now, record.createdAt);
      const next = nextRunOf(data.spec, now, record.createdAt);
      const result = `missed ${missed} run(s) while the gateway was down`;
      await this.#save(record, data, { lastResult: result }, next);
      await this.#tellOwner(
        data,
        `⏰ Schedule ${record.id} (${describeSpec(data.spec)}) ${result}, from ${new Date(record.nextRunAt).toISOString()}; ` +
          `they were not run. ${next === undefined ? "It has ended." : `Next run ${new Date(next).toISOString()}.`}`,
      );
    }
  }

  /** Runs every schedule due now. Contract: resolves with how many ran; never runs one run twice. */
  runDue(): Promise<number> {
    this.#running ??= this.#runDue().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  /** The schedule whose queued prompt is among these items, if any. */
  scheduleOf(items: readonly LaneItem[]): string | undefined {
    for (const item of items) {
      const id = this.#pending.get(item.message);
      if (id !== undefined) return id;
    }
    return undefined;
  }

  /** What a schedule's runs spent, as stored. */
  async spent(id: string): Promise<Spend> {
    const record = await this.#deps.store.getSchedule(id);
    const data = record === undefined ? undefined : this.#read(record);
    return { tokens: data?.spentTokens ?? 0, cost: data?.spentCost ?? 0 };
  }

  /** A schedule's budget is exhausted: it stops (the run under way fails and its owner is told why). */
  async exhausted(id: string, reason: string): Promise<void> {
    const record = await this.#deps.store.getSchedule(id);
    const data = record === undefined ? undefined : this.#read(record);
    if (record?.status !== "active" || data === undefined) return;
    const { nextRunAt: _next, ...rest } = record;
    await this.#deps.store.putSchedule({
      ...rest,
      status: "stopped",
      data: stored({ ...data, lastResult: `stopped: budget exhausted — ${reason}` }),
      updatedAt: this.#deps.now(),
    });
  }

  /** A turn ended: a scheduled prompt's result is recorded, and its owner told when it failed. */
  turnEnded(end: SessionTurnEnd): void {
    for (const item of end.items) {
      const id = this.#pending.get(item.message);
      if (id === undefined) continue;
      this.#pending.delete(item.message);
      const failure =
        end.result === undefined
          ? "the turn did not start"
          : end.result.reason === "error" || end.result.reason === "aborted"
            ? (end.result.error ?? end.result.reason)
            : undefined;
      void this.#recordResult(id, failure, end.result?.usage).catch((error: unknown) =>
        this.#deps.logger.error({ scheduleId: id, error: String(error) }, "schedule result not recorded"),
      );
    }
  }

  async #runDue(): Promise<number> {
    const now = this.#deps.now();
    let ran = 0;
    for (const record of await this.#deps.store.listSchedules({ status: "active" })) {
      const data = this.#read(record);
      if (data === undefined || record.nextRunAt === undefined || record.nextRunAt > now) continue;
      if (!this.#owns(data.sessionKey)) continue;
      // Recorded before the prompt is queued: a crash after this point loses the run rather than doubling it.
      const next = nextRunOf(data.spec, now, record.createdAt);
      await this.#save(record, data, { runs: data.runs + 1, lastRunAt: now, lastResult: "running" }, next);
      ran++;
      try {
        await this.#deliver(record.id, data);
      } catch (error) {
        await this.#recordResult(record.id, error instanceof Error ? error.message : String(error));
      }
    }
    return ran;
  }

  /** A stored schedule's data, or undefined for a row it cannot use (logged once, then skipped: never thrown). */
  #read(record: ScheduleRecord): ScheduleData | undefined {
    const reading = readStoredSchedule(record);
    if (reading.ok) return reading.data;
    if (!this.#unreadable.has(record.id)) {
      this.#unreadable.add(record.id);
      this.#deps.logger.error(
        { scheduleId: record.id, problem: reading.problem },
        "stored schedule cannot be read: skipped (stop or delete it)",
      );
    }
    return undefined;
  }

  #owns(sessionKey: string): boolean {
    return this.#deps.owns?.(sessionKey) ?? true;
  }

  async #deliver(id: string, data: ScheduleData): Promise<void> {
    if (data.fresh) await this.#deps.freshSession(data.sessionKey);
    const session = await this.#deps.store.getSession(data.sessionKey);
    if (session === undefined) throw new Error(`its session ${data.sessionKey} no longer exists`);
    const message: AgentMessage = { role: "user", content: data.prompt, timestamp: this.#deps.now() };
    const { firstSeq } = await this.#deps.store.appendMessages(data.sessionKey, [message]);
    this.#deps.notice(session, `⏰ Schedule ${id}: ${data.prompt}`);
    this.#pending.set(message, id);
    this.#deps.accept(session, message, firstSeq, data.ownerId);
  }

  async #recordResult(id: string, failure: string | undefined, usage?: Usage): Promise<void> {
    const record = await this.#deps.store.getSchedule(id);
    const data = record === undefined ? undefined : this.#read(record);
    if (record === undefined || data === undefined) return;
    // A schedule its budget stopped keeps that as its last result.
    const stopped = record.status === "stopped" && data.lastResult?.startsWith("stopped:") === true;
    await this.#save(
      record,
      data,
      {
        ...(stopped ? {} : { lastResult: failure === undefined ? "ok" : `failed: ${failure}` }),
        spentTokens: data.spentTokens + (usage?.totalTokens ?? 0),
        spentCost: data.spentCost + (usage?.cost.total ?? 0),
      },
      record.nextRunAt,
    );
    if (failure !== undefined) {
      await this.#tellOwner(data, `⚠️ Schedule ${id} (${describeSpec(data.spec)}) failed: ${failure}`);
    }
  }

  async #save(record: ScheduleRecord, data: ScheduleData, change: Partial<ScheduleData>, next: number | undefined) {
    const { nextRunAt: _old, ...rest } = record;
    const ended = next === undefined && record.status === "active";
    await this.#deps.store.putSchedule({
      ...rest,
      status: ended ? "done" : record.status,
      ...(next === undefined ? {} : { nextRunAt: next }),
      data: stored({ ...data, ...change }),
      updatedAt: this.#deps.now(),
    });
  }

  async #tellOwner(data: ScheduleData, text: string): Promise<void> {
    const session = await this.#deps.store.getSession(data.ownerSessionKey);
    if (session !== undefined) this.#deps.notice(session, text);
    else this.#deps.logger.warn({ owner: data.ownerId, text }, "schedule owner's chat is gone");
  }
}

/** Schedule data as the store keeps it (zod's output type is JSON already; its optional fields are left out). */
function stored(data: ScheduleData): ScheduleRecord["data"] {
  return JSON.parse(JSON.stringify(data)) as ScheduleRecord["data"];
}
