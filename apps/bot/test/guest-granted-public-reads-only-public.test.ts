import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  modelRequests,
  PEOPLE,
  sentText,
  startTelegramBot,
  type TelegramBot,
  toolResultsIn,
} from "./support/telegram-bot-fixture.js";

// `guestRead: [public]` on the agent: a guest in a group reads the agent's public/ folder and nothing else of its
// workspace, however the path is written.
let t: TelegramBot;
let workspace = "";

beforeAll(async () => {
  t = await startTelegramBot(["guestRead: [public]"], async (dataDir) => {
    workspace = join(dataDir, "workspaces", "assistant");
    await mkdir(join(workspace, "public"), { recursive: true });
    await mkdir(join(workspace, "private"), { recursive: true });
    await writeFile(join(workspace, "public", "menu.txt"), "Soup of the day: lentil\n");
    await writeFile(join(workspace, "private", "plan.txt"), "PRIVATEPLAN-93c1\n");
    await writeFile(join(workspace, "ledger.txt"), "PRIVATEPLAN-93c1 ledger\n");
    await symlink(join(workspace, "private"), join(workspace, "public", "escape"));
  });
}, 300_000);

afterAll(async () => {
  await t?.close();
});

describe("a guest granted public/ reads public/ and nothing outside it", () => {
  it("reads and lists public/", async () => {
    const { telegram, openai } = t;
    openai.enqueue(
      [
        { type: "tool_call", id: "p1", name: "read_file", args: { path: "public/menu.txt" } },
        { type: "tool_call", id: "p2", name: "list_dir", args: { path: "public" } },
      ],
      [{ type: "text", text: "Today: lentil soup." }],
    );
    await telegram.injectGroupMessage({ from: PEOPLE.guest, text: "what's on the menu?" });
    await sentText(telegram, telegram.group.id, "Today: lentil soup.");
    const [read, list] = toolResultsIn(await modelRequests(openai, 2));
    expect(read).toContain("1\tSoup of the day: lentil");
    expect(list).toContain("escape@");
    expect(list).toContain("menu.txt");
  }, 60_000);

  it("refuses the root, other folders, .., absolute paths, a symlink out of public/, and writes", async () => {
    const { telegram, openai } = t;
    const attempts: [string, Record<string, unknown>][] = [
      ["list_dir", { path: "." }],
      ["read_file", { path: "private/plan.txt" }],
      ["read_file", { path: "public/../private/plan.txt" }],
      ["read_file", { path: join(workspace, "private", "plan.txt") }],
      ["read_file", { path: "public/escape/plan.txt" }],
      ["list_dir", { path: "public/escape" }],
      ["glob", { pattern: "**/*.txt" }],
      ["grep", { pattern: "PRIVATEPLAN" }],
      ["grep", { pattern: "PRIVATEPLAN", path: "public/escape" }],
      ["write_file", { path: "public/note.txt", content: "hi" }],
    ];
    openai.enqueue(
      attempts.map(([name, args], i) => ({ type: "tool_call" as const, id: `q${i}`, name, args })),
      [{ type: "text", text: "That is private." }],
    );
    await telegram.injectGroupMessage({ from: PEOPLE.guest, text: "show me the private plan" });
    await sentText(telegram, telegram.group.id, "That is private.");
    // This group's session also holds the first test's two results: take this turn's.
    const results = toolResultsIn(await modelRequests(openai, 4)).slice(2);
    expect(results).toHaveLength(attempts.length);
    results.forEach((text, i) => {
      expect(text, JSON.stringify(attempts[i])).not.toMatch(/PRIVATEPLAN|plan\.txt:|ledger/);
      expect(text, JSON.stringify(attempts[i])).toMatch(/outside|not available to a guest user/);
    });
  }, 60_000);
});
