/** Limits on sub-agents; all configurable. */
export interface SubagentLimits {
  /** Deepest sub-agent level (top-level agent is depth 0). Default 1, at most 5. */
  maxSpawnDepth: number;
  /** Children one run may spawn in all. Default 5. */
  maxChildrenPerRun: number;
  /** Sub-agents running at once in this process (shared by every Subagents instance). Default 8. */
  maxConcurrentSubagents: number;
  /** Child timeout when spawn_agent gives none, in seconds. Default 300. */
  defaultTimeoutSeconds: number;
  /** Upper bound on a child's timeout, in seconds. Default 3600. */
  maxTimeoutSeconds: number;
}

/** A limit outside its allowed range. */
export class SubagentConfigError extends Error {
  override readonly name = "SubagentConfigError";
}

/**
 * Fills in defaults and checks ranges.
 * Contract: throws SubagentConfigError for maxSpawnDepth outside 1–5 or any limit below 1.
 */
export function resolveSubagentLimits(partial: Partial<SubagentLimits> = {}): SubagentLimits {
  const limits: SubagentLimits = {
    maxSpawnDepth: partial.maxSpawnDepth ?? 1,
    maxChildrenPerRun: partial.maxChildrenPerRun ?? 5,
    maxConcurrentSubagents: partial.maxConcurrentSubagents ?? 8,
    defaultTimeoutSeconds: partial.defaultTimeoutSeconds ?? 300,
    maxTimeoutSeconds: partial.maxTimeoutSeconds ?? 3600,
  };
  if (!Number.isInteger(limits.maxSpawnDepth) || limits.maxSpawnDepth < 1 || limits.maxSpawnDepth > 5) {
    throw new SubagentConfigError(`maxSpawnDepth must be an integer from 1 to 5, got ${limits.maxSpawnDepth}`);
  }
  for (const key of [
    "maxChildrenPerRun",
    "maxConcurrentSubagents",
    "defaultTimeoutSeconds",
    "maxTimeoutSeconds",
  ] as const) {
    if (!(limits[key] > 0)) throw new SubagentConfigError(`${key} must be positive, got ${limits[key]}`);
  }
  return limits;
}
