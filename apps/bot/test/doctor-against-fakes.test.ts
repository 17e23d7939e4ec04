// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are ${ENV_VAR} references in config text
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SqliteSessionStore } from "@chorus/store-sqlite";
import {
  startFakeAnthropic,
  startFakeDiscord,
  startFakeOpenAI,
  startFakeSlack,
  startFakeTelegram,
} from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { doctorCommand } from "../src/cli/doctor/doctor-command.js";
import { captureIo } from "./support/capture-io.js";

let dir: string;
const closers: (() => Promise<void>)[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "chorus-doctor-"));
});
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
  await rm(dir, { recursive: true, force: true });
});

async function fakes() {
  const [telegram, discord, slack, openai, anthropic] = await Promise.all([
    startFakeTelegram(),
    startFakeDiscord(),
    startFakeSlack({ mode: "socket" }),
    startFakeOpenAI(),
    startFakeAnthropic(),
  ]);
  closers.push(
    () => telegram.close(),
    () => discord.close(),
    () => slack.close(),
    () => openai.close(),
    () => anthropic.close(),
  );
  return { telegram, discord, slack, openai, anthropic };
}

describe("chorus doctor", () => {
  it("passes every check against working fakes, one line each, with real authentication calls", async () => {
    const { telegram, discord, slack, openai } = await fakes();
    openai.enqueue([{ type: "text", text: "ok" }]);
    const config = {
      dataDir: join(dir, "data"),
      providers: { openai: { apiKey: "${TEST_OPENAI_KEY}", baseUrl: openai.url } },
      agents: [{ id: "assistant", model: "openai/gpt-4.1" }],
      channels: {
        telegram: [{ token: telegram.token, apiRoot: telegram.apiRoot }],
        discord: [{ token: discord.token, restApi: discord.restApi }],
        slack: [{ botToken: slack.botToken, appToken: slack.appToken, slackApiUrl: slack.apiUrl }],
        webchat: [{ port: 0 }],
      },
    };
    await writeFile(join(dir, "chorus.config.json"), JSON.stringify(config));
    const io = captureIo(dir, { TEST_OPENAI_KEY: "sk-doctor-test-000000" });
    expect(await doctorCommand(io, undefined)).toBe(0);
    const lines = io.out().trim().split("\n");
    expect(lines.filter((line) => line.startsWith("PASS")).map((line) => line.split(/\s+/)[1])).toEqual([
      "config",
      "store",
      "discord/main",
      "slack/main",
      "telegram/main",
      "model",
      "webchat/main",
    ]);
    expect(io.out()).toContain("All checks passed.");
    expect(telegram.callsTo("getMe")).toHaveLength(1);
    expect(slack.callsTo("auth.test")).toHaveLength(1);
    expect(slack.callsTo("apps.connections.open")).toHaveLength(1);
    expect(openai.requests[0]?.headers.authorization).toBe("Bearer sk-doctor-test-000000");
    expect(io.out()).not.toContain(telegram.token);
  });

  it("fails a rejected token and a rejected key with a clear line, and exits 1", async () => {
    const { telegram, anthropic } = await fakes();
    anthropic.enqueue([{ type: "auth_error" }]);
    const config = {
      dataDir: join(dir, "data"),
      providers: { anthropic: { apiKey: "sk-ant-wrong-key-000000", baseUrl: anthropic.url } },
      agents: [{ id: "assistant", model: "anthropic/claude-sonnet-4-6" }],
      channels: { telegram: [{ token: "999999:not-a-real-token", apiRoot: telegram.apiRoot }] },
    };
    await writeFile(join(dir, "chorus.config.json"), JSON.stringify(config));
    const io = captureIo(dir, {});
    expect(await doctorCommand(io, undefined)).toBe(1);
    const out = io.out();
    expect(out).toMatch(/^FAIL {2}telegram\/main\s+token rejected/m);
    expect(out).toMatch(/^FAIL {2}model anthropic\/claude-sonnet-4-6\s+key rejected/m);
    expect(out).toMatch(/^PASS {2}store/m);
    expect(out).toContain("2 check(s) failed.");
    expect(out).not.toContain("sk-ant-wrong-key-000000");
  });

  it("passes the store a running Chorus holds, without opening it a second time", async () => {
    await writeFile(
      join(dir, "chorus.config.json"),
      JSON.stringify({ dataDir: join(dir, "data"), agents: [{ id: "assistant", model: "demo" }] }),
    );
    // The running bot: it owns the store file (and its lock) for as long as it runs.
    const running = SqliteSessionStore.open({ path: join(dir, "data", "chorus.db") });
    closers.push(() => running.close());
    await running.ensureSession({
      key: "agent:assistant:webchat:local:direct:me",
      agentId: "assistant",
      channel: "webchat",
      accountId: "local",
      chatId: "me",
    });
    const io = captureIo(dir, {});
    expect(await doctorCommand(io, undefined)).toBe(0);
    expect(io.out()).toMatch(/^PASS {2}store\s+SQLite .*chorus\.db is in use by a running Chorus/m);
    // The running bot's store is untouched and still works.
    expect(await running.listSessions()).toHaveLength(1);
  });

  it("fails the config check with the exact path of a mistake", async () => {
    await writeFile(join(dir, "chorus.config.yaml"), "agents:\n  - id: Bad Id\n    model: demo\n");
    const io = captureIo(dir, {});
    expect(await doctorCommand(io, undefined)).toBe(1);
    expect(io.out()).toMatch(
      /^FAIL {2}config\s+invalid configuration in .*chorus\.config\.yaml:\n {2}agents\[0\]\.id: expected an id/m,
    );
  });
});
