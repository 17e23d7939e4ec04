export interface CurrentTimeArgs {
  /** IANA time zone, e.g. "Europe/Paris". Default UTC. */
  timezone?: string | undefined;
}

/**
 * Describes the current time: ISO-8601 UTC, the wall-clock time in the zone and the weekday.
 * Contract: an unknown time zone throws a RangeError naming it.
 */
export function describeCurrentTime(args: CurrentTimeArgs, now: Date = new Date()): string {
  const timeZone = args.timezone ?? "UTC";
  let local: string;
  try {
    local = new Intl.DateTimeFormat("en-GB", {
      timeZone,
      dateStyle: "full",
      timeStyle: "long",
    }).format(now);
  } catch {
    throw new RangeError(`Unknown time zone "${timeZone}"; use an IANA name such as "Europe/Paris".`);
  }
  return `UTC: ${now.toISOString()}\n${timeZone}: ${local}\nUnix seconds: ${Math.floor(now.getTime() / 1000)}`;
}
