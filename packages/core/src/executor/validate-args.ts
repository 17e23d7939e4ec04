import type { z } from "zod";
import type { AnyAgentTool } from "../tools/tool-types.js";

/** Parsed arguments, or the text of an error result listing every validation issue. */
export type ValidatedArgs = { ok: true; args: unknown } | { ok: false; error: string };

/**
 * Validates a call's arguments against the tool's zod schema, once.
 * Contract: never throws; the error text names each issue's path so the model can correct itself.
 */
export function validateArgs(tool: AnyAgentTool, raw: unknown): ValidatedArgs {
  let parsed: z.ZodSafeParseResult<unknown>;
  try {
    parsed = tool.parameters.safeParse(raw);
  } catch (error) {
    return { ok: false, error: `Invalid arguments for tool "${tool.name}": ${(error as Error).message}` };
  }
  if (parsed.success) return { ok: true, args: parsed.data };
  const lines = parsed.error.issues.map((issue) => {
    const path = issue.path.length > 0 ? issue.path.map(String).join(".") : "(arguments)";
    return `- ${path}: ${issue.message}`;
  });
  return {
    ok: false,
    error: `Invalid arguments for tool "${tool.name}":\n${lines.join("\n")}\nReceived: ${safeJson(raw)}`,
  };
}

function safeJson(value: unknown): string {
  try {
    const text = JSON.stringify(value);
    return text.length > 2000 ? `${text.slice(0, 2000)}…` : text;
  } catch {
    return String(value);
  }
}
