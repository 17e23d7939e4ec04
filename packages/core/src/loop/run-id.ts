import { randomUUID } from "node:crypto";

// One random prefix per process plus a counter: unique like a UUID per run, at a counter's cost.
const prefix = randomUUID().slice(0, 18);
let counter = 0;

/** A new run id. Contract: unique within the process, and across processes with UUID-level odds. */
export function newRunId(): string {
  counter++;
  return `${prefix}-${counter.toString(16).padStart(12, "0")}`;
}
