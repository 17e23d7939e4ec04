import { attachRestoration } from "../context/context-restoration/attach-restoration.js";
import { CONTEXT_RESTORATION_DEFAULTS } from "../context/context-restoration/restoration-config.js";
import { restorationText } from "../context/context-restoration/restoration-text.js";
import type { RunState } from "./run-state.js";

/**
 * After a summarising compaction, re-attaches the files the session read recently (seed 004, tier 2 only).
 * Contract: never throws — a failing source leaves the compacted transcript as it was (and is logged).
 */
export async function restoreRecentFiles(state: RunState): Promise<void> {
  const cfg = state.config.context?.restoration;
  if (cfg?.recentFiles === undefined || cfg.enabled === false) return;
  const maxFiles = cfg.maxFiles ?? CONTEXT_RESTORATION_DEFAULTS.maxFiles;
  try {
    // Ask for more than fit: some are still in the kept messages or over the budget.
    const files = await cfg.recentFiles(state.run, maxFiles * 2);
    const restored = restorationText(files, state.messages, cfg);
    if (restored) state.messages = attachRestoration(state.messages, restored.text);
  } catch (error) {
    state.config.logger?.warn(
      { err: error instanceof Error ? error.message : String(error) },
      "restoring recently read files after compaction failed",
    );
  }
}
