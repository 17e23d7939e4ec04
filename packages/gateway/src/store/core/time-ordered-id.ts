import { randomBytes } from "node:crypto";

let lastMs = 0;
let counter = 0;

/**
 * A unique id that sorts by creation time: `<prefix><ms, base 36><counter><random>`. A store keyed by such ids appends
 * at the right edge of its index instead of touching a random page per insert (what a random UUID does), so a COMMIT
 * writes fewer pages. Contract: unique within a process (counter) and across processes (48 random bits); ids made
 * later in one process sort after earlier ones.
 */
export function timeOrderedId(prefix: string): string {
  const ms = Date.now();
  if (ms === lastMs) counter++;
  else {
    lastMs = ms;
    counter = 0;
  }
  return `${prefix}${ms.toString(36).padStart(9, "0")}${counter.toString(36).padStart(4, "0")}${randomBytes(6).toString("hex")}`;
}
