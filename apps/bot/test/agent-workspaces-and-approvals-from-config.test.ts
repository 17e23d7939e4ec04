import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AnyAgentTool, PreDispatchPolicy } from "@chorus/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { gatewayConfigOf } from "../src/config/gateway-config-of.js";
import { parseBotConfig } from "../src/config/load-bot-config.js";
import { agentApprovalPolicy } from "../src/runtime/agent-approvals.js";
import { outputScopeOf } from "../src/runtime/agent-setup.js";
import { agentWorkspacesOf } from "../src/runtime/agent-workspaces.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "chorus-ws-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function config(agents: unknown[], extra: Record<string, unknown> = {}) {
  const result = parseBotConfig({ dataDir: "./data", agents, ...extra });
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.config;
}

describe("agent workspaces", () => {
  it("each agent gets its own folder; naming the same workspace shares one; a path is a path", async () => {
    const workspaces = await agentWorkspacesOf(
      config([
        { id: "a", model: "demo" },
        { id: "b", model: "demo" },
        { id: "c", model: "demo", workspace: "team" },
        { id: "d", model: "demo", workspace: "team" },
        { id: "e", model: "demo", workspace: "./elsewhere/e" },
      ]),
      dir,
    );
    expect(workspaces.byAgent).toEqual({
      a: join(dir, "data", "workspaces", "a"),
      b: join(dir, "data", "workspaces", "b"),
      c: join(dir, "data", "workspaces", "team"),
      d: join(dir, "data", "workspaces", "team"),
      e: join(dir, "elsewhere", "e"),
    });
    expect(workspaces.outputsRoot).toBe(join(dir, "data", "outputs"));
    expect(workspaces.legacyAgent).toBeUndefined();
  });

  it("an earlier install's shared workspace stays the default agent's; the others get their own", async () => {
    await mkdir(join(dir, "data", "workspace"), { recursive: true });
    const workspaces = await agentWorkspacesOf(
      config(
        [
          { id: "a", model: "demo" },
          { id: "b", model: "demo" },
        ],
        { defaultAgent: "b" },
      ),
      dir,
    );
    expect(workspaces.byAgent).toEqual({ a: join(dir, "data", "workspaces", "a"), b: join(dir, "data", "workspace") });
    expect(workspaces.legacyAgent).toBe("b");
    expect(workspaces.legacyUnused).toBeUndefined();
  });

  it("says so when an earlier install's workspace is used by no agent (every agent names its own)", async () => {
    await mkdir(join(dir, "data", "workspace"), { recursive: true });
    const workspaces = await agentWorkspacesOf(config([{ id: "a", model: "demo", workspace: "mine" }]), dir);
    expect(workspaces.legacyAgent).toBeUndefined();
    expect(workspaces.legacyUnused).toBe(join(dir, "data", "workspace"));
  });

  it("refuses guestRead folders outside the workspace and unknown approval values, naming the path", () => {
    const result = parseBotConfig({
      agents: [{ id: "a", model: "demo", guestRead: ["../up", "/abs", ".", "ok/sub"], approvals: { exec: "maybe" } }],
    });
    expect(result.ok).toBe(false);
    const paths = result.ok ? [] : result.issues.map((issue) => issue.path);
    expect(paths).toEqual(
      expect.arrayContaining(["agents[0].guestRead[0]", "agents[0].guestRead[1]", "agents[0].guestRead[2]"]),
    );
    expect(paths.some((path) => path.startsWith("agents[0].approvals"))).toBe(true);
    expect(paths).not.toContain("agents[0].guestRead[3]");
  });

  it("approvals deny entries become the agent's toolPolicy deny for the gateway; the bot's fields stay in the bot", () => {
    const gateway = gatewayConfigOf(
      config([
        {
          id: "a",
          model: "demo",
          workspace: "w",
          guestRead: ["public"],
          approvals: { "group:web": "deny", exec: "ask" },
        },
      ]),
    );
    expect(gateway.agents[0]).toEqual({
      id: "a",
      model: "demo",
      subagents: expect.anything(),
      goals: expect.anything(),
      budgets: {},
      maxOutputTokens: 8192,
      toolOutputCompression: expect.objectContaining({ enabled: false }),
      contextRestoration: expect.objectContaining({ enabled: true }),
      modelPersistence: true,
      unknownCommands: "answer",
      compaction: { pruning: [], statusLine: true },
      toolPolicy: { deny: ["group:web"] },
    });
  });
});

describe("agent approval policy", () => {
  const ownerDm = { trustTier: "owner" };
  const dmKey = "a:main:telegram:dm:1001";
  const groupKey = "a:main:telegram:group:-100";
  async function decide(policy: PreDispatchPolicy, tool: string, sessionId: string, meta: Record<string, unknown>) {
    const decision = await policy({
      messages: [],
      turn: 1,
      model: {} as never,
      run: { runId: "r", depth: 0, sessionId, meta },
      signal: new AbortController().signal,
      toolCall: { type: "toolCall", id: "c", name: tool, arguments: {} },
      tool: { name: tool } as AnyAgentTool,
      args: {},
    });
    return decision?.kind ?? "allow";
  }

  it("by default writes and exec ask in a group and from anyone but the owner in a DM, never the owner's own DM", async () => {
    const policy = agentApprovalPolicy({});
    expect(await decide(policy, "exec", dmKey, ownerDm)).toBe("allow");
    expect(await decide(policy, "write_file", dmKey, ownerDm)).toBe("allow");
    expect(await decide(policy, "exec", groupKey, ownerDm)).toBe("ask");
    expect(await decide(policy, "edit_file", groupKey, ownerDm)).toBe("ask");
    expect(await decide(policy, "exec", dmKey, { trustTier: "trusted" })).toBe("ask");
    expect(await decide(policy, "exec", "not a key", ownerDm)).toBe("ask");
    expect(await decide(policy, "read_file", groupKey, { trustTier: "guest" })).toBe("allow");
    const childOfDm = `agent:researcher:sub:1:run_x:${dmKey}`;
    expect(await decide(policy, "exec", childOfDm, ownerDm)).toBe("allow");
  });

  it("configured entries win: a tool's own entry over its group's, deny refuses", async () => {
    const policy = agentApprovalPolicy({
      approvals: {
        exec: "ask",
        "group:fs-write": "allow",
        edit_file: "ask",
        web_fetch: "deny",
        "group:fs-read": "ask",
      },
    });
    expect(await decide(policy, "exec", dmKey, ownerDm)).toBe("ask");
    expect(await decide(policy, "write_file", groupKey, ownerDm)).toBe("allow");
    expect(await decide(policy, "edit_file", dmKey, ownerDm)).toBe("ask");
    expect(await decide(policy, "web_fetch", dmKey, ownerDm)).toBe("deny");
    expect(await decide(policy, "grep", dmKey, ownerDm)).toBe("ask");
  });
});

describe("saved-output scope", () => {
  it("a sub-agent (at any depth) shares its root conversation's scope; other ids are their own scope", () => {
    const dm = "a:main:telegram:dm:1001";
    const child = `agent:researcher:sub:1:run_x:${dm}`;
    const grandchild = `agent:researcher:sub:2:run_y:${child}`;
    expect(outputScopeOf({ runId: "r", depth: 1, sessionId: child })).toBe(dm);
    expect(outputScopeOf({ runId: "r", depth: 2, sessionId: grandchild })).toBe(dm);
    expect(outputScopeOf({ runId: "r", depth: 0, sessionId: "a:main:telegram:dm:2002" })).toBe(
      "a:main:telegram:dm:2002",
    );
    expect(outputScopeOf({ runId: "r", depth: 0, sessionId: "free text" })).toBe("free text");
  });
});
