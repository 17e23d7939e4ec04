import type { StreamFn } from "@chorus/core";

/**
 * Every kind of model call a session causes, as budgets book it and `/usage` lists it: a turn's own calls, a
 * sub-agent's (charged to its root session's agent), TACO summaries, subgoal extraction, compaction (automatic and
 * `/compact`), the goal supervisor's checks, memory extraction, session titles, tool-pair summaries, session-memory refreshes, goal inference and skill drafts.
 */
export const CALL_PURPOSES = [
  "turn",
  "subagent",
  "taco",
  "subgoals",
  "compaction",
  "supervisor",
  "memory",
  "title",
  "tool_pair_summary",
  "session_memory",
  "goal_inference",
  "skill_draft",
] as const;

/** One kind of model call. */
export type CallPurpose = (typeof CALL_PURPOSES)[number];

/** A StreamOptions `purpose` as budgets book it: a known kind, else a turn's call (a sub-agent's in a child session). */
export function callPurposeOf(purpose: string | undefined, inSubagent: boolean): CallPurpose {
  const known = CALL_PURPOSES.find((candidate) => candidate === purpose);
  if (known !== undefined && known !== "turn") return known;
  return inSubagent ? "subagent" : "turn";
}

/**
 * A StreamFn whose calls are a session's, of one kind: each call carries the session key (`sessionId`) and the kind
 * (`purpose`), so the gateway's budgeted StreamFn reserves it against the session's agent (goal, schedule), caps its
 * output at the agent's `maxOutputTokens` and books it under that kind.
 * Contract: `streamFn` must be the budgeted one; the caller's other options are kept.
 */
export function sessionCallsOf(streamFn: StreamFn, sessionKey: string, purpose: CallPurpose): StreamFn {
  return (model, context, options) => streamFn(model, context, { ...options, sessionId: sessionKey, purpose });
}
