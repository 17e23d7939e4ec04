import { z } from "zod";
import { InvalidToolDefinitionError } from "../errors/agent-errors.js";
import type { LlmTool } from "../stream/stream-fn.js";
import type { AgentTool, AnyAgentTool, ToolCategory } from "./tool-types.js";

const CATEGORIES: ReadonlySet<string> = new Set<ToolCategory>(["info", "edit", "exec", "mcp"]);
const NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const llmTools = new WeakMap<AnyAgentTool, LlmTool>();

/**
 * Declares a tool. Contract: returns the same definition, typed; throws
 * InvalidToolDefinitionError for a bad name, category or a schema zod cannot turn into JSON
 * Schema (the JSON Schema is computed once, here).
 */
export function defineTool<TSchema extends z.ZodType, TDetails = unknown>(
  tool: AgentTool<TSchema, TDetails>,
): AgentTool<TSchema, TDetails> {
  if (!NAME.test(tool.name)) {
    throw new InvalidToolDefinitionError(tool.name, "the name must be 1–64 letters, digits, '_' or '-'");
  }
  if (!CATEGORIES.has(tool.category)) {
    throw new InvalidToolDefinitionError(tool.name, `unknown category "${tool.category}" (info, edit, exec or mcp)`);
  }
  if (typeof tool.execute !== "function") throw new InvalidToolDefinitionError(tool.name, "execute is not a function");
  toLlmTool(tool);
  return tool;
}

/** The model's view of a tool (name, description, JSON Schema). Contract: cached per tool object. */
export function toLlmTool(tool: AnyAgentTool): LlmTool {
  let llm = llmTools.get(tool);
  if (llm) return llm;
  let parameters: Record<string, unknown>;
  try {
    parameters = z.toJSONSchema(tool.parameters, { io: "input" }) as Record<string, unknown>;
  } catch (error) {
    throw new InvalidToolDefinitionError(
      tool.name,
      `its parameters cannot be expressed as JSON Schema: ${(error as Error).message}`,
    );
  }
  delete parameters.$schema;
  llm = { name: tool.name, description: tool.description, parameters };
  llmTools.set(tool, llm);
  return llm;
}
