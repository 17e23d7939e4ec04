import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FakeLlmServer, startFakeAnthropic } from "@chorus/testkit";
import { BotProcess } from "./bot-process.js";
import { buildBot } from "./build-bot.js";

/** `chorus start` as a child process with one agent on the fake Anthropic Messages API. */
export interface AnthropicBot {
  readonly dir: string;
  readonly dataDir: string;
  readonly anthropic: FakeLlmServer;
  readonly bot: BotProcess;
  /** Kills the bot, closes the fake model and removes the dir (the platform fakes are the caller's). */
  close(): Promise<void>;
}

/** What goes into the config besides the agent. */
export interface AnthropicBotOptions {
  /** YAML lines under `channels:`, indented by two (e.g. `  discord:`, `    - accountId: main`). */
  readonly channels: readonly string[];
  /** YAML lines under `admins:`, indented by two (e.g. `  discord: ["123"]`). */
  readonly admins?: readonly string[];
  /** Runs before the bot starts, e.g. to put files in `<dataDir>/workspaces/assistant/`. */
  readonly prepare?: (dataDir: string) => Promise<void>;
}

/**
 * Starts the real bot (`node dist/main.js start`, built first) with one agent `assistant` on a fresh fake Anthropic
 * (claude-sonnet-4-6, which sees images and reads PDFs as documents), the given channels and admins, JSON logs, and
 * waits for "chorus started".
 * Contract: every value in `channels` / `admins` is the caller's YAML; on a failed start everything is cleaned up.
 */
export async function startAnthropicBot(options: AnthropicBotOptions): Promise<AnthropicBot> {
  await buildBot();
  const dir = await mkdtemp(join(tmpdir(), "chorus-media-"));
  const dataDir = join(dir, "data");
  const anthropic = await startFakeAnthropic();
  let bot: BotProcess | undefined;
  try {
    await options.prepare?.(dataDir);
    const configFile = join(dir, "chorus.config.yaml");
    await writeFile(
      configFile,
      [
        `dataDir: ${JSON.stringify(dataDir)}`,
        "providers:",
        "  anthropic:",
        "    apiKey: sk-ant-e2e-media-0000000000",
        `    baseUrl: ${JSON.stringify(anthropic.url)}`,
        "agents:",
        "  - id: assistant",
        "    model: anthropic/claude-sonnet-4-6",
        ...(options.admins === undefined ? [] : ["admins:", ...options.admins]),
        "channels:",
        ...options.channels,
        "logging:",
        "  format: json",
        "",
      ].join("\n"),
    );
    bot = new BotProcess(["start", "--config", configFile], { cwd: dir, env: { PATH: process.env.PATH, HOME: dir } });
    await bot.waitForLine(/"msg":"chorus started"/);
  } catch (error) {
    await bot?.kill();
    await anthropic.close();
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  const started = bot;
  return {
    dir,
    dataDir,
    anthropic,
    bot: started,
    close: async () => {
      await started.kill();
      await anthropic.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
