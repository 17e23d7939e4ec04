/** What a compaction saved and when (the shape of `SessionStatus.lastCompaction`; formatting sits below commands). */
interface CompactionFigures {
  readonly before: number;
  readonly after: number;
  readonly atMs?: number | undefined;
}

/** Whole tokens with thousands separators (`12,400`), so a reader can check the sums. */
export function formatTokens(tokens: number): string {
  return Math.round(tokens).toLocaleString("en-US");
}

/**
 * /status's context figure: tokens in use, and with a known window its size and how full it is
 * (`~12,400 / 200,000 tokens (6% full)`). The percentage is rounded down so that a nearly full window never reads 100%.
 */
export function formatContextFill(used: number, max: number): string {
  if (max <= 0) return `~${formatTokens(used)} tokens`;
  const percent = Math.floor((used / max) * 100);
  return `~${formatTokens(used)} / ${formatTokens(max)} tokens (${percent}% full)`;
}

/**
 * /status's last compaction: when (UTC; with the date unless it was today) and what it saved
 * (`14:02 UTC, saved 48,000 tokens (61,000 → 13,000)`), or `no compaction yet`.
 */
export function formatLastCompaction(last: CompactionFigures | undefined, now: number): string {
  if (last === undefined) return "no compaction yet";
  const saved = `saved ${formatTokens(Math.max(0, last.before - last.after))} tokens`;
  const sizes = `(${formatTokens(last.before)} → ${formatTokens(last.after)})`;
  return last.atMs === undefined ? `${saved} ${sizes}` : `${utcTime(last.atMs, now)}, ${saved} ${sizes}`;
}

function utcTime(at: number, now: number): string {
  const iso = new Date(at).toISOString();
  const time = `${iso.slice(11, 16)} UTC`;
  return iso.slice(0, 10) === new Date(now).toISOString().slice(0, 10) ? time : `${iso.slice(0, 10)} ${time}`;
}
