import type { AnyAgentTool, PreDispatchPolicy } from "@chorus/core";
import type { AgentCommand, RegisteredExtensions } from "../extension/index.js";

/** What the extensions add to one agent. */
export interface ExtensionAgentParts {
  /** Offered after the agent's own tools. */
  readonly tools: readonly AnyAgentTool[];
  /** Checked before the agent's trust-tier gate, on its own calls only. */
  readonly policies: readonly PreDispatchPolicy[];
  /** Appended to its system prompt, in the extensions' order. */
  readonly prompts: readonly string[];
  readonly agentCommands: readonly AgentCommand[];
}

/** Nothing added (a gateway without extensions). */
export const NO_EXTENSION_PARTS: ExtensionAgentParts = { tools: [], policies: [], prompts: [], agentCommands: [] };

/** Gathers, once per agent at construction, what every extension adds to it (in the extensions' order). */
export function extensionAgentParts(registered: RegisteredExtensions, agentId: string): ExtensionAgentParts {
  const { extensions } = registered;
  return {
    tools: extensions.flatMap((extension) => extension.toolsFor?.(agentId) ?? []),
    policies: extensions.flatMap((extension) => extension.policiesFor?.(agentId) ?? []),
    prompts: extensions
      .map((extension) => extension.agentPrompt?.(agentId))
      .filter((prompt): prompt is string => prompt !== undefined && prompt.trim() !== ""),
    agentCommands: extensions.flatMap((extension) => extension.agentCommands?.(agentId) ?? []),
  };
}
