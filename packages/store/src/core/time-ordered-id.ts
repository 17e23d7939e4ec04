import { randomBytes } from "node:crypto";

/** 48 random bits drawn once per process: they tell this process's ids from another's (no crypto call per id). */
const PROCESS_RANDOM = randomBytes(6).toString("hex");

let lastMs = 0;
let counter = 0;

/**
 * A unique id that sorts by creation time: `<prefix><ms, base 36><counter><process random>`. A store keyed by such ids
 * appends at the right edge of its index instead of touching a random page per insert (what a random UUID does), so a
 * COMMIT writes fewer pages. Contract: unique within a process (time + counter) and across processes (48 random bits
 * per process); ids made later in one process sort after earlier ones.
 */
export function timeOrderedId(prefix: string): string {
  const ms = Date.now();
  if (ms > lastMs) {
    lastMs = ms;
    counter = 0;
  } else counter++; // same ms, or the clock stepped back: keep counting so ids stay unique and ordered
  return `${prefix}${lastMs.toString(36).padStart(9, "0")}${counter.toString(36).padStart(4, "0")}${PROCESS_RANDOM}`;
}
