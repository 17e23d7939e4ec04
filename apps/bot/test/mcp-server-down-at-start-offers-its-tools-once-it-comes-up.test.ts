import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { RecordedLlmRequest } from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  everythingSentTo,
  modelRequests,
  PEOPLE,
  sentText,
  startTelegramBot,
  type TelegramBot,
  toolResultsIn,
} from "./support/telegram-bot-fixture.js";

// `chorus start` (a child process) with one stdio MCP server, `late`, held down (it exits at once) while a flag file
// exists: the bot starts without it, retries it with its backoff, and offers its tools once the flag is gone.
const notesScript = fileURLToPath(new URL("./fixtures/mcp-notes-server.mjs", import.meta.url));
let t: TelegramBot;
let scratch: string;
let downFlag: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "chorus-mcp-late-"));
  downFlag = join(scratch, "late-down");
  await writeFile(downFlag, "held down");
  t = await startTelegramBot([
    "mcpServers:",
    "  - name: late",
    "    transport: stdio",
    `    command: ${JSON.stringify(process.execPath)}`,
    `    args: [${JSON.stringify(notesScript)}, "--stdio"]`,
    `    env: { MCP_DOWN_FLAG: ${JSON.stringify(downFlag)} }`,
  ]);
}, 300_000);

afterAll(async () => {
  await t?.close();
  await rm(scratch, { recursive: true, force: true });
});

const mcpToolsIn = (request: RecordedLlmRequest | undefined): string[] =>
  ((request?.body.tools ?? []) as { function?: { name?: string } }[])
    .map((tool) => tool.function?.name ?? "")
    .filter((name) => name.startsWith("mcp__"));

async function until(check: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("an MCP server that is down when the bot starts", () => {
  it("leaves the bot answering without its tools, and /status and the log say it is being retried", async () => {
    const { telegram, openai, bot } = t;
    expect(bot.lines.some((line) => line.includes("MCP server unreachable at start: retrying"))).toBe(true);
    const base = openai.requests.length;
    openai.enqueue([{ type: "text", text: "No notes server yet." }]);
    await telegram.injectDm({ text: "save a note: buy milk" });
    await sentText(telegram, telegram.user.id, "No notes server yet.");
    expect(mcpToolsIn(await modelRequests(openai, base + 1))).toEqual([]);
    await telegram.injectCommand({ command: "status", args: "" });
    await until(() => everythingSentTo(telegram, telegram.user.id).includes("late: not reached yet, retrying"));
  }, 30_000);

  it("once it comes up, its tools are offered on the next turn and a call works", async () => {
    const { telegram, openai, bot } = t;
    await rm(downFlag);
    await bot.waitForLine(/"mcpServer":"late".*MCP server connected|MCP server connected.*"mcpServer":"late"/);
    const base = openai.requests.length;
    openai.enqueue(
      [{ type: "tool_call", name: "mcp__late__add_note", args: { text: "buy milk" } }],
      [{ type: "text", text: "Saved." }],
    );
    await telegram.injectDm({ text: "save a note: buy milk" });
    await sentText(telegram, telegram.user.id, "Saved.");
    expect(mcpToolsIn(await modelRequests(openai, base + 1))).toContain("mcp__late__add_note");
    expect(toolResultsIn(await modelRequests(openai, base + 2)).join("\n")).toContain("saved note 1: buy milk");
  }, 60_000);

  it("a guest in a group still never reaches its tools", async () => {
    const { telegram, openai } = t;
    const base = openai.requests.length;
    openai.enqueue(
      [{ type: "tool_call", name: "mcp__late__whoami", args: {} }],
      [{ type: "text", text: "No MCP for guests." }],
    );
    await telegram.injectGroupMessage({ from: PEOPLE.guest, text: "tell me the notes server's process id" });
    await sentText(telegram, telegram.group.id, "No MCP for guests.");
    const result = toolResultsIn(await modelRequests(openai, base + 2)).join("\n");
    expect(result).toMatch(/"mcp__late__whoami" is not (available to a guest user|permitted here)/);
    expect(result).not.toMatch(/pid \d+/);
  }, 30_000);
});
