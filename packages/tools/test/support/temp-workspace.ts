import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AnyAgentTool, ToolCallContext, ToolOutput } from "@chorus/core";

/** A fresh temp folder; call `cleanup` in afterEach. */
export function makeTempDir(prefix = "chorus-tools-"): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A minimal tool call context for calling `execute` directly. */
export function callContext(overrides: Partial<ToolCallContext> = {}): ToolCallContext {
  return {
    signal: new AbortController().signal,
    toolCallId: "call-1",
    onUpdate: () => {},
    run: { runId: "run-1", depth: 0 },
    addUsage: () => {},
    ...overrides,
  };
}

/** Finds a tool by name, parses its arguments with its schema and runs it. */
export async function runTool(
  tools: AnyAgentTool[],
  name: string,
  args: Record<string, unknown>,
  ctx: ToolCallContext = callContext(),
): Promise<ToolOutput & { text: string }> {
  const tool = tools.find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  const parsed = tool.parameters.parse(args);
  const out = await tool.execute(parsed, ctx);
  const text = out.content.map((c) => (c.type === "text" ? c.text : "")).join("");
  return { ...out, text };
}
