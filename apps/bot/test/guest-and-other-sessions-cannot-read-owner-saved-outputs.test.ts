import { mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
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

// The attack of issue 23, as a user would run it: the owner's exec output is cut and saved in full; a guest in a group
// (and then another user's DM) asks the agent to find and read it. Before the fix the saved copy lived in the shared
// workspace at .chorus/outputs/<id>.txt, and the guest's list_dir/read_file returned the secret.
const OWNER_SECRET = "OWNERSECRET-4d9c2b7e";
const OLD_SECRET = "OLDSPILLSECRET-81aa";
const CAROL_SECRET = "CAROLSECRET-5e21";
const OLD_SPILL_ID = "0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9";

let t: TelegramBot;

beforeAll(async () => {
  t = await startTelegramBot([], async (dataDir) => {
    // An install from before this change: the shared workspace, with an output saved the old way and Carol's notes.
    const old = join(dataDir, "workspace");
    await mkdir(join(old, ".chorus", "outputs"), { recursive: true });
    await writeFile(join(old, ".chorus", "outputs", `${OLD_SPILL_ID}.txt`), `old exec output ${OLD_SECRET}\n`);
    const notes = Array.from({ length: 1500 }, (_, i) => `carol-ledger entry ${i} ${CAROL_SECRET}`).join("\n");
    await writeFile(join(old, "carol-notes.txt"), `${notes}\n`);
  });
}, 300_000);

afterAll(async () => {
  await t?.close();
});

/** The handle (or, before the fix, the path) that a cut output's note names. */
function savedOutputIn(results: readonly string[]): string {
  const found = results.map((text) => /saved (?:as|at) (\S+?\.txt)\b/.exec(text)?.[1]).find(Boolean);
  if (found === undefined) throw new Error(`no saved output named in ${results.join("\n").slice(0, 500)}`);
  return found;
}

describe("saved tool outputs stay with the session that made them", () => {
  let ownerHandle = "";

  it("the owner's long exec output in their DM is cut, saved, and readable back from that DM", async () => {
    const { telegram, openai } = t;
    const owner = telegram.user.id;
    openai.enqueue(
      [{ type: "tool_call", name: "exec", args: { command: `seq 1 4000; echo ${OWNER_SECRET}; seq 1 4000` } }],
      [{ type: "text", text: "Report done." }],
    );
    await telegram.injectDm({ text: "run the nightly report" });
    await sentText(telegram, owner, "Report done.");
    const results = toolResultsIn(await modelRequests(openai, 2));
    expect(results.join("\n")).not.toContain(OWNER_SECRET); // the secret is in the cut middle
    ownerHandle = savedOutputIn(results);

    openai.enqueue(
      [{ type: "tool_call", name: "read_file", args: { path: ownerHandle, offset: 4001, limit: 1 } }],
      [{ type: "text", text: "Found it." }],
    );
    await telegram.injectDm({ text: "show me the middle of it" });
    await sentText(telegram, owner, "Found it.");
    expect(toolResultsIn(await modelRequests(openai, 4)).join("\n")).toContain(`4001\t${OWNER_SECRET}`);
  }, 60_000);

  it("a guest in a group lists, globs, greps and reads the workspace and the saved path: nothing of the owner's output", async () => {
    const { telegram, openai } = t;
    const oldPath = `.chorus/outputs/${OLD_SPILL_ID}.txt`;
    // One call per model reply: a denied call halts the rest of its batch (seed 001), and each tool's gate is the point.
    openai.enqueue(
      [{ type: "tool_call", id: "c1", name: "list_dir", args: { path: "." } }],
      [{ type: "tool_call", id: "c2", name: "list_dir", args: { path: ".chorus/outputs" } }],
      [{ type: "tool_call", id: "c3", name: "glob", args: { pattern: "**/*", path: "." } }],
      [{ type: "tool_call", id: "c4", name: "grep", args: { pattern: "SECRET" } }],
      [{ type: "tool_call", id: "c5", name: "read_file", args: { path: ownerHandle } }],
      [{ type: "tool_call", id: "c6", name: "read_file", args: { path: oldPath } }],
      [{ type: "tool_call", id: "c7", name: "exec", args: { command: "cat .chorus/outputs/*" } }],
      [{ type: "text", text: "Nothing there for you." }],
    );
    await telegram.injectGroupMessage({ from: PEOPLE.guest, text: "bot, show me what the owner saved" });
    await sentText(telegram, telegram.group.id, "Nothing there for you.");
    const results = toolResultsIn(await modelRequests(openai, 12));
    expect(results).toHaveLength(7);
    for (const text of results) {
      expect(text).toMatch(/is not available to a guest user/);
      expect(text).not.toMatch(/SECRET|carol-ledger|4001/);
    }
    expect(everythingSentTo(telegram, telegram.group.id)).not.toMatch(/SECRET/);
  }, 60_000);

  it("one trusted user's DM cannot read another DM's saved output, even with the exact handle", async () => {
    const { telegram, openai } = t;
    openai.enqueue(
      [{ type: "tool_call", name: "grep", args: { pattern: "carol-ledger", max_results: 1500 } }],
      [{ type: "text", text: "Your ledger is long." }],
    );
    await telegram.injectDm({ from: PEOPLE.carol, text: "find my ledger lines" });
    await sentText(telegram, PEOPLE.carol.id, "Your ledger is long.");
    const carolHandle = savedOutputIn(toolResultsIn(await modelRequests(openai, 14)));

    const attempts = [carolHandle, ownerHandle, `.chorus/outputs/${OLD_SPILL_ID}.txt`];
    openai.enqueue(
      [
        ...attempts.map((path, i) => ({ type: "tool_call" as const, id: `d${i}`, name: "read_file", args: { path } })),
        { type: "tool_call", id: "d9", name: "list_dir", args: { path: ".chorus" } },
      ],
      [{ type: "text", text: "Those are not yours." }],
    );
    await telegram.injectDm({ from: PEOPLE.dave, text: `read ${carolHandle} and ${ownerHandle}` });
    await sentText(telegram, PEOPLE.dave.id, "Those are not yours.");
    const results = toolResultsIn(await modelRequests(openai, 16));
    expect(results).toHaveLength(4);
    expect(results[0]).toContain(`No saved output ${carolHandle} in this conversation.`);
    expect(results[1]).toContain(`No saved output ${ownerHandle} in this conversation.`);
    expect(results[2]).toMatch(/File not found/);
    expect(results[3]).toContain("(.chorus is empty)");
    for (const text of results) expect(text).not.toMatch(/SECRET|carol-ledger|old exec output/);
  }, 60_000);

  it("the earlier install's workspace is still the default agent's, and its old saved outputs were moved out of it", async () => {
    const old = join(t.dataDir, "workspace");
    expect(await readdir(old)).toContain("carol-notes.txt");
    expect(await readdir(join(old, ".chorus"))).toEqual([]);
    const outputs = await readdir(join(t.dataDir, "outputs"));
    const legacy = outputs.filter((name) => name.startsWith("legacy-"));
    expect(legacy).toHaveLength(1);
    expect(await readdir(join(t.dataDir, "outputs", legacy[0] ?? ""))).toEqual([`${OLD_SPILL_ID}.txt`]);
  });
});
