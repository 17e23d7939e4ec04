import type { ToolPairSummariesSnapshot } from "@chorus/core";
import { z } from "zod";

/** The session setting that keeps a session's tool-pair summaries (by tool call id) across idle, restart and owner. */
export const TOOL_PAIR_SUMMARIES_SETTING = "toolPairSummaries";

const storedSchema = z.record(z.string(), z.string());

/** The summaries stored with a session. Contract: never throws; anything unreadable is none (they are made again). */
export function readStoredSummaries(settings: Readonly<Record<string, unknown>>): ToolPairSummariesSnapshot {
  const parsed = storedSchema.safeParse(settings[TOOL_PAIR_SUMMARIES_SETTING]);
  return parsed.success ? parsed.data : {};
}
