import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { BotProcess } from "./support/bot-process.js";
import { buildBot } from "./support/build-bot.js";

let dir: string;
let bot: BotProcess | undefined;

beforeAll(async () => {
  await buildBot();
  dir = await mkdtemp(join(tmpdir(), "chorus-pg-down-"));
}, 300_000);

afterAll(async () => {
  await bot?.kill();
  await rm(dir, { recursive: true, force: true });
});

it("chorus start with DATABASE_URL on a server that is down exits 1 with host:port and the cause, never the password", async () => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));

  const password = "down-db-password-51c2";
  bot = new BotProcess(["start"], {
    cwd: dir,
    env: {
      PATH: process.env.PATH,
      HOME: dir,
      CHORUS_WEBCHAT_PORT: "0",
      DATABASE_URL: `postgres://chorus:${password}@127.0.0.1:${port}/chorus`,
    },
  });
  const exit = await bot.exited;

  expect(exit.code).toBe(1);
  const output = bot.lines.join("\n");
  expect(output).toContain(`Cannot reach PostgreSQL at 127.0.0.1:${port}/chorus`);
  expect(output).toContain("ECONNREFUSED");
  expect(output).not.toContain(password);
  expect(bot.lines.filter((line) => /^\s+at /.test(line) || line.includes('"stack"'))).toEqual([]);
});
