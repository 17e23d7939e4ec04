import type { AgentMessage } from "../../messages/message-types.js";
import type { ToolRunInfo } from "../../tools/tool-types.js";
import { attachRestoration } from "./attach-restoration.js";
import { CONTEXT_RESTORATION_DEFAULTS, type ContextRestorationConfig } from "./restoration-config.js";
import { restorationText } from "./restoration-text.js";

/** The compacted transcript with the recent files attached, or as it was (with why, when the source failed). */
export type RestorationOutcome = { messages: AgentMessage[]; error?: string };

/**
 * Re-attaches the run's recently read files to a transcript just compacted by a summary (seed 004, tier 2 only): used
 * by the loop after its automatic summary and by apps after their own (e.g. a `/compact` command).
 * Contract: never throws; returns `messages` itself when restoration is off, there is nothing to attach, or the source
 * fails (then with `error`).
 */
export async function withRestoredFiles(
  config: ContextRestorationConfig | undefined,
  run: ToolRunInfo,
  messages: AgentMessage[],
): Promise<RestorationOutcome> {
  if (config?.recentFiles === undefined || config.enabled === false) return { messages };
  const maxFiles = config.maxFiles ?? CONTEXT_RESTORATION_DEFAULTS.maxFiles;
  try {
    // Ask for more than fit: some are still in the kept messages or over the budget.
    const files = await config.recentFiles(run, maxFiles * 2);
    const restored = restorationText(files, messages, config);
    return { messages: restored ? attachRestoration(messages, restored.text) : messages };
  } catch (error) {
    return { messages, error: error instanceof Error ? error.message : String(error) };
  }
}
