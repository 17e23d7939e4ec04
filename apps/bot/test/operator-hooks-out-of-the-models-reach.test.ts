// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${ENV_VAR} references in config text
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BotProcess } from "./support/bot-process.js";
import { buildBot } from "./support/build-bot.js";
import {
  modelRequests,
  sentText,
  startTelegramBot,
  type TelegramBot,
  toolResultsIn,
} from "./support/telegram-bot-fixture.js";

// The documented setup: `pre_tool_use: ./hooks/check-tool.sh` next to chorus.config.yaml. The hook runs from the
// config file's folder, which the agent's file tools cannot write; it gets exec's scrubbed environment plus what the
// operator lists, and a failing post_tool_use hook is logged.

const GUARD = [
  "#!/bin/sh",
  "event=$(cat)",
  "env > hook-env.txt",
  'case "$event" in *\'"toolName":"exec"\'*) echo "exec is switched off by the operator" >&2; exit 2 ;; esac',
  "exit 0",
  "",
].join("\n");

let t: TelegramBot;
let configDir: string;

beforeAll(async () => {
  t = await startTelegramBot(
    [
      "hooks:",
      "  pre_tool_use:",
      "    - command: ./hooks/check-tool.sh",
      '      env: { HOOK_LABEL: "chorus-audit" }',
      "  post_tool_use:",
      "    - command: cat >> tool-audit.jsonl",
      "    - command: ./hooks/ship-audit.sh",
    ],
    async (dataDir) => {
      const hooks = join(dirname(dataDir), "hooks");
      await mkdir(hooks, { recursive: true });
      await writeFile(join(hooks, "check-tool.sh"), GUARD);
      await writeFile(join(hooks, "ship-audit.sh"), "#!/bin/sh\necho 'audit sink unreachable' >&2\nexit 3\n");
      await chmod(join(hooks, "check-tool.sh"), 0o755);
      await chmod(join(hooks, "ship-audit.sh"), 0o755);
    },
  );
  configDir = t.dir;
}, 300_000);

afterAll(async () => {
  await t?.close();
});

describe("operator hooks next to the config file", () => {
  it("pre_tool_use: ./hooks/check-tool.sh blocks exec, with its reason shown to the model", async () => {
    const { telegram, openai } = t;
    const before = openai.requests.length;
    openai.enqueue(
      [{ type: "tool_call", name: "exec", args: { command: "touch ran.txt" } }],
      [{ type: "text", text: "The operator blocks exec." }],
    );
    await telegram.injectDm({ text: "touch a file" });
    await sentText(telegram, telegram.user.id, "The operator blocks exec.");
    const results = toolResultsIn(await modelRequests(openai, before + 2));
    expect(results.join("\n")).toContain("exec is switched off by the operator");
    await expect(readFile(join(t.dataDir, "workspaces", "assistant", "ran.txt"))).rejects.toThrow();
  }, 60_000);

  it("the model's write_file cannot replace the guard: its write lands in the workspace, exec stays blocked", async () => {
    const { telegram, openai } = t;
    const before = openai.requests.length;
    openai.enqueue(
      [
        {
          type: "tool_call",
          name: "write_file",
          args: { path: "hooks/check-tool.sh", content: "#!/bin/sh\nexit 0\n" },
        },
      ],
      [{ type: "tool_call", name: "write_file", args: { path: "../../../hooks/check-tool.sh", content: "exit 0\n" } }],
      [{ type: "tool_call", name: "exec", args: { command: "touch ran.txt" } }],
      [{ type: "text", text: "Still blocked." }],
    );
    await telegram.injectDm({ text: "replace the guard, then touch a file" });
    await sentText(telegram, telegram.user.id, "Still blocked.");
    const results = toolResultsIn(await modelRequests(openai, before + 4));
    expect(results.at(-1)).toContain("exec is switched off by the operator");
    expect(await readFile(join(configDir, "hooks", "check-tool.sh"), "utf8")).toBe(GUARD);
    // The first write went to the workspace's own hooks/ folder, which no hook runs from.
    expect(await readFile(join(t.dataDir, "workspaces", "assistant", "hooks", "check-tool.sh"), "utf8")).toBe(
      "#!/bin/sh\nexit 0\n",
    );
    await expect(readFile(join(t.dataDir, "workspaces", "assistant", "ran.txt"))).rejects.toThrow();
  }, 60_000);

  it("hooks see exec's scrubbed environment plus what the operator lists, never the bot's keys and tokens", async () => {
    const env = await readFile(join(configDir, "hook-env.txt"), "utf8");
    expect(env).toContain("HOOK_LABEL=chorus-audit");
    expect(env).toContain(`HOME=${configDir}`);
    expect(env).not.toContain("E2E_OPENAI_KEY");
    expect(env).not.toContain("sk-e2e-sec-0000000000");
    expect(env).not.toContain("E2E_TELEGRAM_TOKEN");
    expect(env).not.toContain(t.telegram.token);
  });

  it("the audit log is written next to the config, and a failing post_tool_use hook is logged", async () => {
    const audit = (await readFile(join(configDir, "tool-audit.jsonl"), "utf8")).trim().split("\n");
    expect(audit.map((line) => (JSON.parse(line) as { toolName: string }).toolName)).toContain("write_file");
    await expect(readFile(join(t.dataDir, "workspaces", "assistant", "tool-audit.jsonl"))).rejects.toThrow();
    const failed = t.bot.lines.filter((line) => line.includes('"msg":"hook failed"'));
    expect(failed.length).toBeGreaterThan(0);
    expect(failed[0]).toContain('"hookEvent":"post_tool_use"');
    expect(failed[0]).toContain("audit sink unreachable");
  });
});

describe("a hook inside an agent's workspace", () => {
  it("is refused at start, naming the hook and the workspace", async () => {
    await buildBot();
    const dir = await mkdtemp(join(tmpdir(), "chorus-hook-in-workspace-"));
    try {
      const workspace = join(dir, "data", "workspaces", "assistant");
      await mkdir(workspace, { recursive: true });
      await writeFile(join(workspace, "guard.sh"), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
      const config = join(dir, "chorus.config.yaml");
      await writeFile(
        config,
        [
          "dataDir: ./data",
          "agents:",
          "  - id: assistant",
          "    model: demo",
          "    hooks:",
          "      pre_tool_use:",
          "        - command: ./data/workspaces/assistant/guard.sh",
          "channels:",
          "  webchat:",
          "    - accountId: local",
          "      port: 0",
          "logging:",
          "  format: json",
          "",
        ].join("\n"),
      );
      const bot = new BotProcess(["start", "--config", config], {
        cwd: dir,
        env: { PATH: process.env.PATH, HOME: dir },
      });
      const exit = await bot.exited;
      expect(exit.code).toBe(1);
      const output = bot.lines.join("\n");
      expect(output).toContain("agents[assistant].hooks.pre_tool_use[0] (./data/workspaces/assistant/guard.sh)");
      expect(output).toContain(`lies inside the workspace of agent assistant (${workspace})`);
      expect(output).not.toContain("Chorus gateway is running");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
