import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { BotProcess } from "./support/bot-process.js";
import { buildBot } from "./support/build-bot.js";

let dir: string;
let bot: BotProcess | undefined;

beforeAll(async () => {
  await buildBot();
  dir = await mkdtemp(join(tmpdir(), "chorus-corrupt-"));
}, 300_000);

afterAll(async () => {
  await bot?.kill();
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
