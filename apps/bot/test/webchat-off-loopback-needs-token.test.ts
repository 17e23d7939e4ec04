import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BotProcess } from "./support/bot-process.js";
import { buildBot } from "./support/build-bot.js";
import { writeWebchatConfig } from "./support/webchat-bot-process.js";

// Only 127.0.0.1, ::1 and localhost keep WebChat on this machine. 127.0.0.2 stands here for any other address (the
// test stays on loopback); binding it without an access token must refuse to start, saying how to set one.

let dir: string;
let bot: BotProcess | undefined;

beforeAll(async () => {
  await buildBot();
  dir = await mkdtemp(join(tmpdir(), "chorus-off-loopback-"));
}, 300_000);

afterAll(async () => {
  await bot?.kill();
  await rm(dir, { recursive: true, force: true });
});

describe("WebChat bound off loopback", () => {
  it("without an access token, chorus start exits 1 with one sentence saying how to set one", async () => {
    const config = await writeWebchatConfig(dir, { host: "127.0.0.2" });
    bot = new BotProcess(["start", "--config", config], { cwd: dir, env: { PATH: process.env.PATH, HOME: dir } });
    const exit = await bot.exited;
    expect(exit.code).toBe(1);
    const output = bot.lines.join("\n");
    expect(output).toContain(
      "channels.webchat[0].accessToken: WebChat on 127.0.0.2 is reachable from other machines, so it needs an access token: " +
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the config's ${ENV_VAR} syntax, as the message shows it
        "set channels.webchat[].accessToken: ${CHORUS_WEBCHAT_TOKEN} in chorus.config.yaml and export CHORUS_WEBCHAT_TOKEN=<a long random secret>",
    );
    expect(bot.lines.filter((line) => /^\s+at /.test(line) || line.includes('"stack"'))).toEqual([]);
    expect(output).not.toContain("Chorus gateway is running");
  }, 30_000);
});
