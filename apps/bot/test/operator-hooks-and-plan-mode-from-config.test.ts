import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { gatewayConfigOf } from "../src/config/gateway-config-of.js";
import { parseBotConfig } from "../src/config/load-bot-config.js";
import { agentSetupsOf } from "../src/runtime/agent-setup.js";
import { agentWorkspacesOf, prepareAgentWorkspaces } from "../src/runtime/agent-workspaces.js";
import { botExtensions } from "../src/runtime/bot-extensions.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "chorus-hooks-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("operator hooks from chorus.config.yaml", () => {
  it("a hook configured for an agent runs in the config file's folder (not its workspace) with the event on stdin", async () => {
    const parsed = parseBotConfig({
      dataDir: "./data",
      agents: [{ id: "main", model: "demo", hooks: { turn_start: [{ command: "cat > turn.json", timeoutMs: 5000 }] } }],
    });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    const workspaces = await agentWorkspacesOf(parsed.config, dir);
    await prepareAgentWorkspaces(workspaces);
    const setup = agentSetupsOf(parsed.config, workspaces).main;
    const hook = setup?.hooks?.turn_start?.[0];
    expect(hook).toBeDefined();
    const outcome = await hook?.({ event: "turn_start", runId: "r1", turn: 1 }, new AbortController().signal);
    expect(outcome).toEqual({ kind: "continue" });
    const seen = JSON.parse(await readFile(join(dir, "turn.json"), "utf8"));
    await expect(readFile(join(workspaces.byAgent.main ?? "", "turn.json"))).rejects.toThrow();
    expect(seen).toEqual({ event: "turn_start", runId: "r1", turn: 1 });
    expect(JSON.stringify(gatewayConfigOf(parsed.config))).not.toContain("hooks");
  });

  it("planMode: true gives the agent /plan and propose_plan; it is off by default", async () => {
    const parsed = parseBotConfig({
      dataDir: "./data",
      agents: [
        { id: "planner", model: "demo", planMode: true },
        { id: "plain", model: "demo" },
      ],
    });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    const planMode = botExtensions(parsed.config, {}, undefined).find((extension) => extension.name === "plan-mode");
    const plan = planMode?.commands?.find((command) => command.name === "plan");
    const typed = (agentId: string) =>
      plan?.run({
        agentId,
        sessionKey: `${agentId}:dm:owner`,
        args: [],
        isAdmin: true,
        trust: "owner",
        message: {
          channel: "test",
          accountId: "main",
          chatType: "dm",
          chatId: "owner",
          messageId: "m1",
          eventId: "e1",
          sender: { id: "owner", name: "Owner", isBot: false },
          text: "/plan",
          attachments: [],
          receivedAt: 0,
          mentionsBot: false,
          replyToBot: false,
        },
      });
    expect(await typed("planner")).toMatch(/^Plan mode is on/);
    expect(await typed("plain")).toBe("Plan mode is not enabled for this agent.");
    expect(planMode?.toolsFor?.("planner").map((tool) => tool.name)).toEqual(["propose_plan"]);
    expect(planMode?.toolsFor?.("plain")).toEqual([]);
  });

  it("a hook without a command, or an unknown hook event, is a config error naming its path", () => {
    const bad = parseBotConfig({
      dataDir: "./data",
      agents: [{ id: "main", model: "demo", hooks: { on_whatever: [], pre_tool_use: [{ command: "" }] } }],
    });
    expect(bad.ok).toBe(false);
    const text = JSON.stringify(bad.ok ? [] : bad.issues);
    expect(text).toContain("on_whatever");
    expect(text).toContain("expected a shell command");
  });
});
