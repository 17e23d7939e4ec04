import { DEFAULT_SOFT_THRESHOLD } from "../context/tool-pair-summaries/tool-pair-summaries-config.js";
import { InvalidAgentConfigError } from "../errors/agent-errors.js";
import type { AgentLoopConfig } from "./loop-config.js";
import { DEFAULT_RESERVE } from "./request-context.js";

/**
 * Checks the pressure tiers' settings: the soft threshold is a share of the window (0 < x < 1) that lies below the
 * hard one (window − reserve), the kept results and the warning offset are not negative. Contract: throws
 * InvalidAgentConfigError naming the field; never changes the config.
 */
export function assertContextPressure(config: Pick<AgentLoopConfig, "model" | "context">): void {
  const context = config.context;
  const offset = context?.warningOffset;
  if (offset !== undefined && !(offset >= 0)) {
    throw new InvalidAgentConfigError(`context.warningOffset must be 0 or more, got ${offset}`);
  }
  const pairs = context?.toolPairSummaries;
  if (pairs === undefined) return;
  if (typeof pairs.summaries?.summaryOf !== "function") {
    throw new InvalidAgentConfigError("context.toolPairSummaries.summaries must have a summaryOf(toolCallId) function");
  }
  const keep = pairs.keepRecent;
  if (keep !== undefined && !(Number.isInteger(keep) && keep >= 0)) {
    throw new InvalidAgentConfigError(
      `context.toolPairSummaries.keepRecent must be a whole number of 0 or more, got ${keep}`,
    );
  }
  const soft = pairs.softThreshold ?? DEFAULT_SOFT_THRESHOLD;
  if (!(soft > 0 && soft < 1)) {
    throw new InvalidAgentConfigError(`context.toolPairSummaries.softThreshold must be between 0 and 1, got ${soft}`);
  }
  const window = context?.window ?? config.model.contextWindow;
  const hard = window - (context?.reserve ?? DEFAULT_RESERVE);
  if (soft * window >= hard) {
    throw new InvalidAgentConfigError(
      `context.toolPairSummaries.softThreshold ${soft} must lie below the hard threshold: ${soft} × ${window} tokens ` +
        `is not under window − reserve (${hard} tokens)`,
    );
  }
}
