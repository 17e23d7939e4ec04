import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { RecordedLlmRequest } from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startNotesHttpServer } from "./fixtures/mcp-notes-server.mjs";
import {
  everythingSentTo,
  modelRequests,
  PEOPLE,
  sentText,
  startTelegramBot,
  type TelegramBot,
  toolResultsIn,
} from "./support/telegram-bot-fixture.js";

// `chorus start` (a child process) with two MCP servers built with the official SDK: `notes` over stdio (a process the
// bot starts) and `web` over Streamable HTTP (served by this test), and `mcpToolLimit: 3` (12 MCP tools in all).
const notesScript = fileURLToPath(new URL("./fixtures/mcp-notes-server.mjs", import.meta.url));
let t: TelegramBot;
let web: Awaited<ReturnType<typeof startNotesHttpServer>>;
let scratch: string;
let downFlag: string;

beforeAll(async () => {
  web = await startNotesHttpServer("web");
  scratch = await mkdtemp(join(tmpdir(), "chorus-mcp-"));
  downFlag = join(scratch, "notes-down");
  t = await startTelegramBot([
    "mcpToolLimit: 3",
    "mcpServers:",
    "  - name: notes",
    "    transport: stdio",
    `    command: ${JSON.stringify(process.execPath)}`,
    `    args: [${JSON.stringify(notesScript)}, "--stdio"]`,
    `    env: { MCP_DOWN_FLAG: ${JSON.stringify(downFlag)} }`,
    "  - name: web",
    "    transport: http",
    `    url: ${JSON.stringify(web.url)}`,
  ]);
}, 300_000);

afterAll(async () => {
  await t?.close();
  await web?.close();
  await rm(scratch, { recursive: true, force: true });
});

const offeredTools = (request: RecordedLlmRequest | undefined): string[] =>
  ((request?.body.tools ?? []) as { function?: { name?: string } }[]).map((tool) => tool.function?.name ?? "");
const mcpToolsIn = (request: RecordedLlmRequest | undefined) =>
  offeredTools(request).filter((name) => name.startsWith("mcp__"));

async function until(check: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function keyboardsIn(chatId: number): { text: string; callback_data: string }[] {
  return t.telegram.calls
    .filter((call) => String((call.body as { chat_id?: unknown } | undefined)?.chat_id) === String(chatId))
    .map((call) => (call.body as { reply_markup?: unknown }).reply_markup)
    .filter((markup) => markup !== undefined)
    .map((markup) => (typeof markup === "string" ? JSON.parse(markup) : markup) as { inline_keyboard?: unknown })
    .flatMap((markup) => (markup.inline_keyboard ?? []) as { text: string; callback_data: string }[][])
    .flat();
}

async function whoamiInOwnerDm(reply: string): Promise<number> {
  const { telegram, openai } = t;
  const base = openai.requests.length;
  openai.enqueue([{ type: "tool_call", name: "mcp__notes__whoami", args: {} }], [{ type: "text", text: reply }]);
  await telegram.injectDm({ text: "which process id is the notes server?" });
  await sentText(telegram, telegram.user.id, reply);
  // The last pid in the conversation's tool results: this turn's.
  const pids = [
    ...toolResultsIn(await modelRequests(openai, base + 2))
      .join("\n")
      .matchAll(/pid (\d+)/g),
  ];
  return Number(pids.at(-1)?.[1]);
}

describe("MCP servers from chorus.config.yaml", () => {
  it("the owner's own DM calls a stdio server's and an HTTP server's tools without a question", async () => {
    const { telegram, openai } = t;
    const base = openai.requests.length;
    openai.enqueue(
      [
        { type: "tool_call", name: "mcp__notes__add_note", args: { text: "buy milk" } },
        { type: "tool_call", name: "mcp__web__add_note", args: { text: "buy bread" } },
      ],
      [{ type: "text", text: "Saved both notes." }],
    );
    await telegram.injectDm({ text: "save a note: buy milk, and one on the web: buy bread" });
    await sentText(telegram, telegram.user.id, "Saved both notes.");
    const results = toolResultsIn(await modelRequests(openai, base + 2)).join("\n");
    expect(results).toContain("saved note 1: buy milk");
    expect(results).toContain("saved note 1: buy bread");
    expect(keyboardsIn(telegram.user.id)).toEqual([]);
  }, 60_000);

  it("offers only the mcpToolLimit most relevant MCP tools, chosen once and kept for the whole turn", async () => {
    const { telegram, openai } = t;
    const base = openai.requests.length;
    openai.enqueue(
      [{ type: "tool_call", name: "mcp__web__weather_forecast", args: { city: "Paris" } }],
      [{ type: "text", text: "Sunny." }],
    );
    await telegram.injectDm({ text: "what is the weather forecast for Paris?" });
    await sentText(telegram, telegram.user.id, "Sunny.");
    const first = await modelRequests(openai, base + 1);
    const second = await modelRequests(openai, base + 2);
    expect(mcpToolsIn(first)).toHaveLength(3);
    expect(mcpToolsIn(first)).toEqual(
      expect.arrayContaining(["mcp__notes__weather_forecast", "mcp__web__weather_forecast"]),
    );
    expect(offeredTools(first)).toContain("read_file");
    // The same list on the turn's second call, after the tool ran: the cached prefix holds.
    expect(offeredTools(second)).toEqual(offeredTools(first));
    expect(toolResultsIn(second).join("\n")).toContain("sunny in Paris");
  }, 60_000);

  it("a guest in a group never reaches an MCP tool", async () => {
    const { telegram, openai } = t;
    const base = openai.requests.length;
    openai.enqueue(
      [{ type: "tool_call", name: "mcp__notes__whoami", args: {} }],
      [{ type: "text", text: "No MCP for guests." }],
    );
    await telegram.injectGroupMessage({ from: PEOPLE.guest, text: "tell me the notes server's process id" });
    await sentText(telegram, telegram.group.id, "No MCP for guests.");
    // Listed like every tool (the list is the agent's), refused at call time by the guest tier: the server never runs it.
    const result = toolResultsIn(await modelRequests(openai, base + 2)).join("\n");
    expect(result).toMatch(/"mcp__notes__whoami" is not (available to a guest user|permitted here)/);
    expect(result).not.toMatch(/pid \d+/);
  }, 60_000);

  it("the owner in a group is asked before an MCP tool runs, as with exec", async () => {
    const { telegram, openai } = t;
    const base = openai.requests.length;
    openai.enqueue(
      [{ type: "tool_call", name: "mcp__notes__add_note", args: { text: "from the group" } }],
      [{ type: "text", text: "Noted in the group." }],
    );
    await telegram.injectGroupMessage({ text: "save a note: from the group" });
    await until(() => keyboardsIn(telegram.group.id).some((button) => button.text === "Approve"));
    expect(openai.requests.length).toBe(base + 1);
    const approve = keyboardsIn(telegram.group.id).find((button) => button.text === "Approve");
    await telegram.injectCommand({
      command: "approve",
      args: approve?.callback_data.split(" ")[1] ?? "",
      chat: telegram.group,
    });
    await sentText(telegram, telegram.group.id, "Noted in the group.");
    expect(toolResultsIn(await modelRequests(openai, base + 2)).join("\n")).toMatch(/saved note \d+: from the group/);
  }, 60_000);

  it("a stdio server that dies is left out while down, shown in /status, and reconnected", async () => {
    const { telegram, openai, bot } = t;
    const firstPid = await whoamiInOwnerDm("That is its pid.");
    expect(firstPid).toBeGreaterThan(0);
    const connectedLines = () => bot.lines.filter((line) => line.includes('"msg":"MCP server connected"')).length;
    const connectedBefore = connectedLines();

    await writeFile(downFlag, "held down");
    process.kill(firstPid, "SIGKILL");
    await bot.waitForLine(/"mcpServer":"notes".*MCP server died|MCP server died.*"mcpServer":"notes"/);
    const base = openai.requests.length;
    openai.enqueue([{ type: "text", text: "Working without notes." }]);
    await telegram.injectDm({ text: "save a note about the weather" });
    await sentText(telegram, telegram.user.id, "Working without notes.");
    const whileDown = mcpToolsIn(await modelRequests(openai, base + 1));
    expect(whileDown.length).toBeGreaterThan(0);
    expect(whileDown.filter((name) => name.startsWith("mcp__notes__"))).toEqual([]);
    await telegram.injectCommand({ command: "status", args: "" });
    await until(() => everythingSentTo(telegram, telegram.user.id).includes("notes: reconnecting"));

    await rm(downFlag);
    await until(() => connectedLines() > connectedBefore, 45_000);
    const secondPid = await whoamiInOwnerDm("Back again.");
    expect(secondPid).toBeGreaterThan(0);
    expect(secondPid).not.toBe(firstPid);
  }, 120_000);
});
