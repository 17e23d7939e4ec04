import type { AgentMessage } from "../../messages/message-types.js";
import type { ToolRunInfo } from "../../tools/tool-types.js";

type MaybePromise<T> = T | Promise<T>;

/** A file the agent read, with its current content (most recent first in a source's answer). */
export interface RecentFile {
  /** The path as the agent knows it (e.g. workspace-relative). */
  path: string;
  content: string;
  /** The read call that last returned it; a file whose call is still in the transcript is not re-attached. */
  toolCallId?: string;
}

/** Lists the files a run's session read recently, most recent first, at most `limit` of them. */
export type RecentFilesSource = (run: ToolRunInfo, limit: number) => RecentFile[] | Promise<RecentFile[]>;

/** A skill the agent loaded (its instructions), to bring back after a compaction. */
export interface RestoredSkill {
  name: string;
  /** The skill's instructions as the agent loaded them. */
  content: string;
}

// The other things a compaction brings back (seed 004 `restore_context_after_compact`): each source gets the run and
// the transcript as it was before the summary (e.g. to find the skills loaded in it).

/** The plan the agent works on (e.g. the plan it proposed in plan mode); undefined or "" when there is none. */
export type RestoredPlanSource = (
  run: ToolRunInfo,
  transcript: readonly AgentMessage[],
) => MaybePromise<string | undefined>;
/** The open items of the agent's todo list, in order. */
export type RestoredTodosSource = (
  run: ToolRunInfo,
  transcript: readonly AgentMessage[],
) => MaybePromise<readonly string[]>;
/** The skills the agent loaded, most recent first. */
export type RestoredSkillsSource = (
  run: ToolRunInfo,
  transcript: readonly AgentMessage[],
) => MaybePromise<readonly RestoredSkill[]>;

/**
 * Context restoration after a summarising compaction (seed 004 "Context Restoration"): the current plan, the pending
 * todos, the loaded skills and the files the agent read recently come back in one attachment, each bounded (with a
 * note where cut), all together within `totalBudgetTokens`, so the agent neither loses them nor reads them again.
 * Active only with at least one source; a source that throws or is late is left out (the compaction still holds).
 */
export interface ContextRestorationConfig {
  /** Default true (when a source is given). */
  enabled?: boolean;
  recentFiles?: RecentFilesSource;
  plan?: RestoredPlanSource;
  todos?: RestoredTodosSource;
  skills?: RestoredSkillsSource;
  /** Files re-attached at most. Default 5. */
  maxFiles?: number;
  /** Tokens the whole restoration may take (plan, todos and skills first; the files get the rest). Default 50 000. */
  totalBudgetTokens?: number;
  /** Tokens one file may take; a longer one is cut with a note. Default 5 000. */
  perFileTokens?: number;
  /** Tokens the plan may take; a longer one is cut with a note. Default 5 000. */
  planTokens?: number;
  /** Tokens the todo list may take; items past it are counted in a note. Default 2 000. */
  todosTokens?: number;
  /** Tokens all skills may take together; skills past it are named in a note. Default 15 000. */
  skillsTokens?: number;
  /** Tokens one skill may take; a longer one is cut with a note. Default 5 000. */
  perSkillTokens?: number;
  /** How long each source may take before it is left out. Default 2 000 ms. */
  sourceTimeoutMs?: number;
}

/**
 * Seed 004's constants CONTEXT_RESTORATION_MAX_FILES, _BUDGET and _PER_FILE; the plan's, todos' and skills' caps are
 * ours (the seed bounds them only by the total).
 */
export const CONTEXT_RESTORATION_DEFAULTS = {
  maxFiles: 5,
  totalBudgetTokens: 50_000,
  perFileTokens: 5_000,
  planTokens: 5_000,
  todosTokens: 2_000,
  skillsTokens: 15_000,
  perSkillTokens: 5_000,
  sourceTimeoutMs: 2_000,
} as const;
