import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Agent, type ToolResultMessage } from "@chorus/core";
import { fakeModel, scriptedStreamFn } from "@chorus/core/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createBuiltinTools } from "../src/builtins/builtin-tools.js";
import { shellHooksOf } from "../src/hooks/shell-hook.js";
import { makeTempDir } from "./support/temp-workspace.js";

const model = fakeModel();
const listTurn = { toolCalls: [{ name: "list_dir", args: { path: "." } }] };

function toolResults(agent: Agent): ToolResultMessage[] {
  return agent.state.messages.filter((m): m is ToolResultMessage => (m as { role?: string }).role === "toolResult");
}
function text(r: ToolResultMessage | undefined): string {
  return (r?.content ?? []).map((c) => (c.type === "text" ? c.text : "")).join("");
}

describe("shell hooks through the Agent (JSON on stdin, run in the workspace)", () => {
  let root: { dir: string; cleanup: () => void };
  beforeEach(() => {
    root = makeTempDir();
  });
  afterEach(() => root.cleanup());

  function agentWith(hooks: ReturnType<typeof shellHooksOf>, script: Parameters<typeof scriptedStreamFn>[0]) {
    const tools = createBuiltinTools({ workspaceRoot: root.dir });
    return new Agent({ model, streamFn: scriptedStreamFn(script), tools, ...(hooks ? { hooks } : {}) });
  }

  it("a pre_tool_use hook that exits non-zero blocks the call with its stderr as the reason", async () => {
    const hooks = shellHooksOf({ pre_tool_use: [{ command: "echo 'list_dir is off limits' >&2; exit 2" }] }, root.dir);
    const agent = agentWith(hooks, [listTurn, "ok"]);
    await agent.prompt("look around");
    const result = toolResults(agent)[0];
    expect(result?.isError).toBe(true);
    expect(text(result)).toContain("list_dir is off limits");
  });

  it("a hook gets the event as JSON on stdin and runs in the agent's workspace", async () => {
    const hooks = shellHooksOf({ pre_tool_use: [{ command: "cat > seen.json" }] }, root.dir);
    const agent = agentWith(hooks, [listTurn, "ok"]);
    await agent.prompt("look around");
    const seen = JSON.parse(readFileSync(join(root.dir, "seen.json"), "utf8"));
    expect(seen).toMatchObject({ event: "pre_tool_use", toolName: "list_dir", args: { path: "." } });
    expect(toolResults(agent)[0]?.isError).toBe(false);
  });

  it("a hook past its time limit is killed and blocks the call, saying it timed out", async () => {
    const hooks = shellHooksOf({ pre_tool_use: [{ command: "sleep 30", timeoutMs: 200 }] }, root.dir);
    const agent = agentWith(hooks, [listTurn, "ok"]);
    await agent.prompt("look around");
    const result = toolResults(agent)[0];
    expect(result?.isError).toBe(true);
    expect(text(result)).toContain("timed out after 200 ms");
  });

  it("a failing post_tool_use hook leaves the result alone; the next one still runs and sees the output", async () => {
    const hooks = shellHooksOf({ post_tool_use: [{ command: "exit 1" }, { command: "cat > post.json" }] }, root.dir);
    const agent = agentWith(hooks, [listTurn, "ok"]);
    await agent.prompt("look around");
    expect(toolResults(agent)[0]?.isError).toBe(false);
    const seen = JSON.parse(readFileSync(join(root.dir, "post.json"), "utf8"));
    expect(seen).toMatchObject({ event: "post_tool_use", toolName: "list_dir", isError: false });
  });

  it("a turn_start hook that exits non-zero stops the run before the model is asked", async () => {
    const hooks = shellHooksOf({ turn_start: [{ command: "echo 'maintenance window' >&2; exit 1" }] }, root.dir);
    const streamFn = scriptedStreamFn(["never"]);
    const agent = new Agent({ model, streamFn, hooks: hooks ?? {} });
    await agent.prompt("hello");
    expect(streamFn.calls).toHaveLength(0);
    expect(agent.state.error).toContain("maintenance window");
  });

  it("a hook gets exec's scrubbed environment plus its own env: no API key or bot token of the gateway's", async () => {
    const saved = { anthropic: process.env.ANTHROPIC_API_KEY, telegram: process.env.TELEGRAM_BOT_TOKEN };
    process.env.ANTHROPIC_API_KEY = "sk-ant-hook-test-secret";
    process.env.TELEGRAM_BOT_TOKEN = "123:hook-test-token";
    try {
      const hooks = shellHooksOf(
        { pre_tool_use: [{ command: "env > env.txt", env: { AUDIT_LABEL: "listed-by-operator" } }] },
        root.dir,
      );
      await agentWith(hooks, [listTurn, "ok"]).prompt("look around");
      const env = readFileSync(join(root.dir, "env.txt"), "utf8");
      expect(env).toContain("AUDIT_LABEL=listed-by-operator");
      expect(env).toContain(`PATH=${process.env.PATH}`);
      expect(env).not.toContain("sk-ant-hook-test-secret");
      expect(env).not.toContain("hook-test-token");
    } finally {
      restore("ANTHROPIC_API_KEY", saved.anthropic);
      restore("TELEGRAM_BOT_TOKEN", saved.telegram);
    }
  });
});

function restore(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}
