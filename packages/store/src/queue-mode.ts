/** What a message arriving during a run does: steer it, follow it up, collect with others, or interrupt it. */
export const QUEUE_MODES = ["steer", "followup", "collect", "interrupt"] as const;

/** A session's queue mode (`QUEUE_MODES`). */
export type QueueMode = (typeof QUEUE_MODES)[number];
