import { appendFile, chmod, mkdir, mkdtemp, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { BotProcess } from "./support/bot-process.js";
import { buildBot } from "./support/build-bot.js";
import { writeWebchatConfig } from "./support/webchat-bot-process.js";
import { WebchatClient } from "./support/webchat-client.js";

// Transcripts, memory facts, saved outputs and workspaces are the owner's only: the data dir and every folder in it
// 0700, every file 0600 — SQLite's -wal and -shm included — and a data dir an earlier version left open is tightened
// at start, with a log line.

let dir: string;
let bot: BotProcess | undefined;
let client: WebchatClient | undefined;

beforeAll(async () => {
  await buildBot();
}, 300_000);

afterEach(async () => {
  await client?.close();
  client = undefined;
  await bot?.kill();
  bot = undefined;
  await rm(dir, { recursive: true, force: true });
});

/** Starts `chorus start` on a WebChat config with memory in a file of its own; resolves with the page's URL. */
async function startBot(): Promise<string> {
  const config = await writeWebchatConfig(dir, {});
  await appendFile(config, "memory:\n  path: ./data/memory.db\n");
  // The test runner's own umask (typically 022) is what the bot inherits, as from an operator's shell.
  bot = new BotProcess(["start", "--config", config], { cwd: dir, env: { PATH: process.env.PATH, HOME: dir } });
  const line = await bot.waitForLine(/webchat\/local\s+http:\/\/\S+/);
  return /http:\/\/\S+/.exec(line)?.[0] ?? "";
}

/** Every folder and file under `root` with its permission bits, e.g. ["chorus.db 600", …]. */
async function modesUnder(root: string): Promise<Map<string, string>> {
  const modes = new Map<string, string>([[".", ((await stat(root)).mode & 0o777).toString(8)]]);
  for (const entry of await readdir(root, { recursive: true })) {
    modes.set(entry, ((await stat(join(root, entry))).mode & 0o777).toString(8));
  }
  return modes;
}

async function expectPrivate(root: string): Promise<Map<string, string>> {
  const modes = await modesUnder(root);
  for (const [path, mode] of modes) {
    const isDir = (await stat(join(root, path))).isDirectory();
    expect(`${path} ${mode}`).toBe(`${path} ${isDir ? "700" : "600"}`);
  }
  return modes;
}

describe("the data dir at rest", () => {
  it("a fresh start creates the data dir 0700 and every file in it 0600, SQLite's -wal and -shm included", async () => {
    dir = await mkdtemp(join(tmpdir(), "chorus-private-data-"));
    const url = await startBot();
    client = await WebchatClient.connect(url);
    expect(await client.ask("dm", "hello")).not.toBe("");
    const modes = await expectPrivate(join(dir, "data"));
    expect([...modes.keys()]).toEqual(
      expect.arrayContaining([
        "chorus.db",
        "chorus.db-wal",
        "chorus.db-shm",
        "chorus.db.lock",
        "memory.db",
        "memory.db-wal",
        "memory.db-shm",
        "webchat.key",
        "outputs",
        "workspaces",
        "workspaces/assistant",
      ]),
    );
    expect(bot?.lines.join("\n")).not.toContain("made the data dir private");
  }, 60_000);

  it("a data dir an earlier version left readable is tightened at start, with one log line saying so", async () => {
    dir = await mkdtemp(join(tmpdir(), "chorus-private-data-"));
    const data = join(dir, "data");
    await mkdir(join(data, "workspaces", "assistant"), { recursive: true, mode: 0o755 });
    await writeFile(join(data, "workspaces", "assistant", "notes.md"), "private notes\n", { mode: 0o644 });
    const old = new DatabaseSync(join(data, "memory.db"));
    old.exec("PRAGMA journal_mode = WAL; CREATE TABLE leftover (x); INSERT INTO leftover VALUES (1);");
    old.close();
    for (const path of [data, join(data, "workspaces"), join(data, "workspaces", "assistant")]) {
      await chmod(path, 0o755);
    }
    await chmod(join(data, "memory.db"), 0o644);
    expect((await modesUnder(data)).get("workspaces/assistant/notes.md")).toBe("644");

    await startBot();
    const line = await bot?.waitForLine(/made the data dir private/);
    expect(line).toContain("are now owner-only (folders 0700, files 0600)");
    expect(JSON.parse(line ?? "{}")).toMatchObject({ level: 40, dataDir: data, count: 5 });
    expect(bot?.lines.filter((item) => item.includes("made the data dir private"))).toHaveLength(1);
    await expectPrivate(data);
  }, 60_000);
});
