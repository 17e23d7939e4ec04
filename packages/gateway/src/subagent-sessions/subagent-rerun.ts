import { parseSessionKey } from "@chorus/store";

/** The run meta key that makes a child run a re-run in its first run's session. */
const RERUN_META = "rerunSession";

interface RerunMark {
  readonly parentRunId: string;
  readonly sessionKey: string;
  /** The interrupted run's traceparent, when it was traced: the re-run's span links to it. */
  readonly resumes?: string;
}

/**
 * The run meta that makes the next child of `parentRunId` a re-run in `sessionKey` (which holds its task already),
 * linked to the run it replaces (`resumes`, that run's traceparent). Contract: only that parent's child reads it; a
 * grandchild that inherits the meta is not a re-run.
 */
export function rerunMeta(parentRunId: string, sessionKey: string, resumes?: string): Record<string, unknown> {
  const mark: RerunMark = { parentRunId, sessionKey, ...(resumes === undefined ? {} : { resumes }) };
  return { [RERUN_META]: mark };
}

/**
 * What a child of `parentRunId` re-runs, when its run meta says so: the session it works in and the run it replaces.
 * Contract: undefined otherwise.
 */
export function rerunOf(
  meta: Record<string, unknown> | undefined,
  parentRunId: string,
): { readonly sessionKey: string; readonly resumes?: string } | undefined {
  const mark = meta?.[RERUN_META] as Partial<RerunMark> | undefined;
  if (mark?.parentRunId !== parentRunId || typeof mark.sessionKey !== "string") return undefined;
  return typeof mark.resumes === "string"
    ? { sessionKey: mark.sessionKey, resumes: mark.resumes }
    : { sessionKey: mark.sessionKey };
}

/**
 * The run id a background sub-agent's task was spawned as: the one in its session key, whichever run (the first, or a
 * re-run after its instance stopped) delivers its result. The parent knows its task by it, and its result is taken
 * once by it. Contract: `fallback` when the key is not a sub-agent key.
 */
export function taskRunIdOf(childSessionKey: string | undefined, fallback: string): string {
  if (childSessionKey === undefined) return fallback;
  const parsed = parseSessionKey(childSessionKey);
  return parsed.ok && parsed.key.kind === "subagent" ? parsed.key.childId : fallback;
}
