import { Cron } from "croner";
import { z } from "zod";

/** The latest instant a `Date` can hold (ms since the epoch); a schedule never points past it. */
export const LATEST_DATE_MS = 8_640_000_000_000_000;

/** The longest `in`/`every` duration: 100 years (a longer one is a typo, and could run past `LATEST_DATE_MS`). */
export const LONGEST_DURATION_MS = 36_500 * 86_400_000;

/** When a schedule runs: once at a time, every so often, or by a cron expression in a time zone. */
export const scheduleSpecSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("at"), at: z.int().min(0).max(LATEST_DATE_MS) }),
  z.object({ kind: z.literal("every"), everyMs: z.int().min(60_000).max(LONGEST_DURATION_MS) }),
  z.object({ kind: z.literal("cron"), expr: z.string().min(1), timeZone: z.string().min(1) }),
]);
export type ScheduleSpec = z.output<typeof scheduleSpecSchema>;

/** The scheduler's part of a stored schedule (`ScheduleRecord.data`). */
export const scheduleDataSchema = z.object({
  spec: scheduleSpecSchema,
  prompt: z.string().min(1),
  agentId: z.string().min(1),
  /** The session the prompt goes to. */
  sessionKey: z.string().min(1),
  /** Start the session's conversation afresh before each run (a new session each time). */
  fresh: z.boolean(),
  /** Who made it, and the session of the chat they made it in (told of failures and missed runs). */
  ownerId: z.string().min(1),
  ownerSessionKey: z.string().min(1),
  runs: z.int().min(0),
  lastRunAt: z.int().min(0).max(LATEST_DATE_MS).optional(),
  /** "ok", or why the last run failed, or what was missed. */
  lastResult: z.string().optional(),
  /** What its runs spent (counted against `budgets.scheduleTokens` / `scheduleCostUsd`). */
  spentTokens: z.number().min(0).default(0),
  spentCost: z.number().min(0).default(0),
});
export type ScheduleData = z.output<typeof scheduleDataSchema>;

/** Whether `zone` is an IANA time zone this runtime knows. */
export function isKnownTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * Reads a cron expression (croner: 5 fields, or 6 with seconds first). Contract: the reason it is malformed, or
 * undefined when it is fine.
 */
export function cronProblem(expr: string, timeZone: string): string | undefined {
  try {
    new Cron(expr, { timezone: timeZone, paused: true });
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** The first run strictly after `after`, or undefined when there is none (a one-off already past). */
export function nextRunOf(spec: ScheduleSpec, after: number, createdAt: number): number | undefined {
  switch (spec.kind) {
    case "at":
      return spec.at > after ? spec.at : undefined;
    case "every": {
      // Runs stay on the grid of the creation time, so a late tick does not shift every later run.
      const steps = Math.floor((after - createdAt) / spec.everyMs) + 1;
      return createdAt + Math.max(1, steps) * spec.everyMs;
    }
    case "cron":
      return new Cron(spec.expr, { timezone: spec.timeZone, paused: true }).nextRun(new Date(after))?.getTime();
  }
}

/** How many runs fell due from `due` (included) up to `now` (included); counted up to `cap`. */
export function runsDueBetween(spec: ScheduleSpec, due: number, now: number, createdAt: number, cap = 1_000): number {
  let count = 0;
  let at: number | undefined = due;
  while (at !== undefined && at <= now && count < cap) {
    count++;
    at = nextRunOf(spec, at, createdAt);
  }
  return count;
}

/** A spec in words, for chat. */
export function describeSpec(spec: ScheduleSpec): string {
  switch (spec.kind) {
    case "at":
      return `once at ${new Date(spec.at).toISOString()}`;
    case "every":
      return `every ${formatInterval(spec.everyMs)}`;
    case "cron":
      return `cron \`${spec.expr}\` (${spec.timeZone})`;
  }
}

function formatInterval(ms: number): string {
  if (ms % 86_400_000 === 0) return `${ms / 86_400_000}d`;
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  return `${ms / 60_000}m`;
}
