import type { ToolRunInfo } from "../../tools/tool-types.js";

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

/**
 * Context restoration after a summarising compaction (seed 004 "Context Restoration", tier 2 only): the files the
 * agent read recently are re-attached, bounded in count and tokens, so it does not read them again. Active only with
 * a `recentFiles` source.
 */
export interface ContextRestorationConfig {
  /** Default true (when a source is given). */
  enabled?: boolean;
  recentFiles?: RecentFilesSource;
  /** Files re-attached at most. Default 5. */
  maxFiles?: number;
  /** Tokens all re-attached files may take together. Default 50 000. */
  totalBudgetTokens?: number;
  /** Tokens one file may take; a longer one is cut with a note. Default 5 000. */
  perFileTokens?: number;
}

/** Seed 004's constants CONTEXT_RESTORATION_MAX_FILES, _BUDGET and _PER_FILE. */
export const CONTEXT_RESTORATION_DEFAULTS = {
  maxFiles: 5,
  totalBudgetTokens: 50_000,
  perFileTokens: 5_000,
} as const;
