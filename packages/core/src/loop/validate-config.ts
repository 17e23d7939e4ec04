import { InvalidAgentConfigError } from "../errors/agent-errors.js";
import type { AgentLoopConfig } from "./loop-config.js";
import { toolIndex } from "./tool-index.js";
import { assertContextPressure } from "./validate-context-pressure.js";

/**
 * Checks what a run cannot start without. Contract: throws InvalidAgentConfigError naming the
 * field; never changes the config.
 */
export function assertLoopConfig(config: Partial<AgentLoopConfig>): void {
  if (!config.model || typeof config.model.id !== "string") {
    throw new InvalidAgentConfigError("config.model is required (a Model with an id, provider and api)");
  }
  if (typeof config.streamFn !== "function") throw new InvalidAgentConfigError("config.streamFn must be a function");
  positive("maxTurns", config.maxTurns);
  positive("toolExecution.maxConcurrency", config.toolExecution?.maxConcurrency);
  if (config.maxOutputRecoveries !== undefined && !(config.maxOutputRecoveries >= 0)) {
    throw new InvalidAgentConfigError("maxOutputRecoveries must be 0 or more");
  }
  assertContextPressure(config as Pick<AgentLoopConfig, "model" | "context">);
  const duplicate = toolIndex(config.tools).duplicate;
  if (duplicate !== undefined) throw new InvalidAgentConfigError(`two tools are named "${duplicate}"`);
}

function positive(name: string, value: number | undefined): void {
  if (value !== undefined && !(Number.isInteger(value) && value >= 1)) {
    throw new InvalidAgentConfigError(`${name} must be a whole number of at least 1, got ${value}`);
  }
}
