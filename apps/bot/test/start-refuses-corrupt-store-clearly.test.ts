import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { BotProcess } from "./support/bot-process.js";
import { buildBot } from "./support/build-bot.js";

let dir: string;
let bot: BotProcess | undefined;
let second: BotProcess | undefined;

beforeAll(async () => {
  await buildBot();
  dir = await mkdtemp(join(tmpdir(), "chorus-corrupt-"));
}, 300_000);

afterAll(async () => {
  await bot?.kill();
  await second?.kill();
  await rm(dir, { recursive: true, force: true });
});

it("chorus start with a damaged data/chorus.db exits 1 with one clear sentence, no stack trace, file untouched", async () => {
  await mkdir(join(dir, "data"));
  const damaged = randomBytes(8192);
  await writeFile(join(dir, "data", "chorus.db"), damaged);

  bot = new BotProcess(["start"], { cwd: dir, env: { PATH: process.env.PATH, HOME: dir } });
  const exit = await bot.exited;

  expect(exit.code).toBe(1);
  const output = bot.lines.join("\n");
  expect(output).toContain("is not a valid SQLite database or is damaged");
  expect(output).toContain("Restore it from a backup, or move it aside");
  expect(bot.lines.filter((line) => /^\s+at /.test(line) || line.includes('"stack"'))).toEqual([]);
  expect(await readFile(join(dir, "data", "chorus.db"))).toEqual(damaged);
});

it("a second chorus start on the data dir of a running one exits 1 with one clear sentence; the first runs on", async () => {
  const home = join(dir, "twice");
  await mkdir(home);
  const env = { PATH: process.env.PATH, HOME: home, CHORUS_WEBCHAT_PORT: "0" };
  bot = new BotProcess(["start"], { cwd: home, env });
  await bot.waitForLine(/"msg":"chorus started"/);

  second = new BotProcess(["start"], { cwd: home, env });
  const exit = await second.exited;
  expect(exit.code).toBe(1);
  const output = second.lines.join("\n");
  expect(output).toContain(`The session store at ${join(home, "data", "chorus.db")} is in use by another gateway`);
  expect(second.lines.filter((line) => /^\s+at /.test(line) || line.includes('"stack"'))).toEqual([]);
  expect(bot.child.exitCode).toBeNull();
});
