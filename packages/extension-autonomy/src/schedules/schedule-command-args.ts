import { Cron } from "croner";
import { cronProblem, isKnownTimeZone, LONGEST_DURATION_MS, type ScheduleSpec } from "./schedule-spec.js";

/** How /schedule is typed. */
export const SCHEDULE_USAGE =
  "/schedule at <time> | in <duration> | every <duration> | cron <m h dom mon dow> [--tz <Zone>] " +
  "[--session <key> | --new] <prompt>; /schedule list; /schedule stop <id>";

/** A /schedule to create: when, where (`sessionKey` undefined: this chat's session) and what. */
export interface NewScheduleRequest {
  readonly kind: "create";
  readonly spec: ScheduleSpec;
  readonly sessionKey?: string;
  readonly fresh: boolean;
  readonly prompt: string;
}

/** What /schedule asks for, or why it is refused (nothing is stored then). */
export type ScheduleRequest =
  | NewScheduleRequest
  | { readonly kind: "list" }
  | { readonly kind: "stop"; readonly id: string }
  | { readonly kind: "refused"; readonly message: string };

const DURATION = /^(\d+)(m|h|d)$/;
const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

function durationMs(text: string | undefined): number | undefined {
  const match = DURATION.exec(text ?? "");
  if (match === null) return undefined;
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}

function refused(message: string): ScheduleRequest {
  return { kind: "refused", message };
}

/**
 * Reads /schedule's arguments. `now` places `in <duration>`. Contract: never throws; a malformed cron expression, an
 * unknown time zone, a time in the past, a duration under a minute or over 100 years, or a missing prompt is `refused`
 * with a sentence.
 */
export function parseScheduleArgs(args: readonly string[], now: number): ScheduleRequest {
  const [verb, ...rest] = args;
  if (verb === "list" && rest.length === 0) return { kind: "list" };
  if (verb === "stop") {
    return rest.length === 1
      ? { kind: "stop", id: rest[0]! }
      : refused("Usage: /schedule stop <id> (see /schedule list).");
  }
  let specWords: string[];
  if (verb === "cron") specWords = rest.slice(0, 5);
  else if (verb === "at" || verb === "in" || verb === "every") specWords = rest.slice(0, 1);
  else return refused(`Usage: ${SCHEDULE_USAGE}`);
  if (verb === "cron" && specWords.length < 5) {
    return refused(
      "A cron expression has five fields: minute hour day-of-month month day-of-week, e.g. `0 9 * * 1-5`.",
    );
  }
  let i = 1 + specWords.length;
  let timeZone = "UTC";
  let sessionKey: string | undefined;
  let fresh = false;
  while (args[i]?.startsWith("--")) {
    const flag = args[i]!;
    if (flag === "--new") {
      fresh = true;
      i += 1;
      continue;
    }
    const value = args[i + 1];
    if (value === undefined) return refused(`${flag} needs a value.`);
    if (flag === "--tz") timeZone = value;
    else if (flag === "--session") sessionKey = value;
    else return refused(`Unknown option ${flag}. ${SCHEDULE_USAGE}`);
    i += 2;
  }
  const prompt = args.slice(i).join(" ").trim();
  if (!isKnownTimeZone(timeZone)) {
    return refused(`Unknown time zone "${timeZone}": use an IANA name such as Europe/Berlin or America/New_York.`);
  }
  const spec = specOf(verb, specWords, timeZone, now);
  if (typeof spec === "string") return refused(spec);
  if (prompt === "") return refused("What should I send when it runs? Add the prompt after the time.");
  return { kind: "create", spec, ...(sessionKey === undefined ? {} : { sessionKey }), fresh, prompt };
}

function specOf(verb: string, words: readonly string[], timeZone: string, now: number): ScheduleSpec | string {
  if (verb === "cron") {
    const expr = words.join(" ");
    const problem = cronProblem(expr, timeZone);
    return problem === undefined
      ? { kind: "cron", expr, timeZone }
      : `Malformed cron expression \`${expr}\`: ${problem}.`;
  }
  if (verb === "in" || verb === "every") {
    const ms = durationMs(words[0]);
    if (ms === undefined) return `"${words[0] ?? ""}" is not a duration: write it like 30m, 2h or 1d.`;
    if (ms < 60_000) return "The shortest interval is one minute (1m).";
    // Beyond this a run time stops being a date at all (and the store cannot hold it as a number).
    if (ms > LONGEST_DURATION_MS) return `"${words[0]}" is too long: the longest interval is 36500d (about 100 years).`;
    return verb === "in" ? { kind: "at", at: now + ms } : { kind: "every", everyMs: ms };
  }
  const at = instantOf(words[0] ?? "", timeZone);
  if (at === undefined || !Number.isFinite(at))
    return `"${words[0] ?? ""}" is not a time: write it like 2026-12-24T18:00 (in --tz, default UTC).`;
  if (at <= now) return `${new Date(at).toISOString()} is in the past.`;
  return { kind: "at", at };
}

/** An ISO date-time; without an offset it is read in `timeZone` (by croner, which knows the zone's rules). */
function instantOf(text: string, timeZone: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?(Z|[+-]\d{2}:\d{2})?$/.test(text)) return undefined;
  if (/(Z|[+-]\d{2}:\d{2})$/.test(text)) return Date.parse(text);
  try {
    const seconds = text.length === 16 ? `${text}:00` : text;
    return new Cron(seconds, { timezone: timeZone, paused: true }).nextRun(new Date(0))?.getTime();
  } catch {
    return undefined;
  }
}
