// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are ${ENV_VAR} references in config text
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RecordedLlmRequest, startFakeAnthropic, startFakeOpenAI, startFakeTelegram } from "@chorus/testkit";
import { BotProcess } from "./bot-process.js";
import { buildBot } from "./build-bot.js";

export type FakeTelegram = Awaited<ReturnType<typeof startFakeTelegram>>;
export type FakeOpenAI = Awaited<ReturnType<typeof startFakeOpenAI>>;

/** People of the attack tests (the fake's default user, Alice 1001, is the owner: an admin in the config). */
export const PEOPLE = {
  guest: { id: 3003, is_bot: false, first_name: "Mallory", username: "mallory" },
  carol: { id: 4004, is_bot: false, first_name: "Carol", username: "carol" },
  dave: { id: 5005, is_bot: false, first_name: "Dave", username: "dave" },
} as const;

/** `chorus start` as a child process against a fake Telegram and a scripted fake OpenAI-compatible model. */
export interface TelegramBot {
  readonly dir: string;
  readonly dataDir: string;
  readonly telegram: FakeTelegram;
  readonly openai: FakeOpenAI;
  /** The running bot; `restart` replaces it. */
  bot: BotProcess;
  /** Kills the bot (SIGKILL, as a crash) and starts it again on the same config and data dir. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts the real bot with one agent `assistant` on the fake model, Telegram with Alice (1001) as admin, Carol and
 * Dave allowed in DMs (trusted), and the fake's group configured with members as guests (no mention needed).
 * `agentExtra` is YAML added under the agent (e.g. `guestRead: [public]`). `provider: "anthropic"` puts the agent on
 * the fake Anthropic Messages API instead (claude-sonnet-4-6); the fake is still the fixture's `openai` field.
 * `configExtra` is YAML added at the config's top level (e.g. `onRestart: resume`).
 */
export async function startTelegramBot(
  agentExtra: readonly string[] = [],
  prepare?: (dataDir: string) => Promise<void>,
  provider: "openai" | "anthropic" = "openai",
  configExtra: readonly string[] = [],
): Promise<TelegramBot> {
  await buildBot();
  const dir = await mkdtemp(join(tmpdir(), "chorus-sec-"));
  const dataDir = join(dir, "data");
  await prepare?.(dataDir);
  const telegram = await startFakeTelegram();
  const openai = provider === "anthropic" ? await startFakeAnthropic() : await startFakeOpenAI();
  const configFile = join(dir, "chorus.config.yaml");
  await writeFile(
    configFile,
    [
      `dataDir: ${JSON.stringify(dataDir)}`,
      "providers:",
      `  ${provider}:`,
      "    apiKey: ${E2E_OPENAI_KEY}",
      `    baseUrl: ${JSON.stringify(openai.url)}`,
      "agents:",
      "  - id: assistant",
      `    model: ${provider === "anthropic" ? "anthropic/claude-sonnet-4-6" : "openai/gpt-4.1"}`,
      ...agentExtra.map((line) => `    ${line}`),
      "admins:",
      `  telegram: ["${telegram.user.id}"]`,
      "channels:",
      "  telegram:",
      "    - accountId: main",
      "      token: ${E2E_TELEGRAM_TOKEN}",
      `      apiRoot: ${JSON.stringify(telegram.apiRoot)}`,
      "      dmPolicy: allowlist",
      `      allowFrom: ["${PEOPLE.carol.id}", "${PEOPLE.dave.id}"]`,
      "      groups:",
      `        "${telegram.group.id}": { trust: guest, requireMention: false }`,
      "logging:",
      "  format: json",
      ...configExtra,
      "",
    ].join("\n"),
  );
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: dir,
    E2E_OPENAI_KEY: "sk-e2e-sec-0000000000",
    E2E_TELEGRAM_TOKEN: telegram.token,
  };
  const start = async (): Promise<BotProcess> => {
    const bot = new BotProcess(["start", "--config", configFile], { cwd: dir, env });
    await bot.waitForLine(/"msg":"chorus started"/);
    return bot;
  };
  const fixture: TelegramBot = {
    dir,
    dataDir,
    telegram,
    openai,
    bot: await start(),
    restart: async () => {
      await fixture.bot.kill();
      fixture.bot = await start();
    },
    close: async () => {
      await fixture.bot.kill();
      await telegram.close();
      await openai.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
  return fixture;
}

/** The text of every tool result the model was sent in one request. */
export function toolResultsIn(request: RecordedLlmRequest | undefined): string[] {
  const messages = (request?.body.messages ?? []) as { role?: string; content?: unknown }[];
  return messages
    .filter((message) => message.role === "tool")
    .map((message) => (typeof message.content === "string" ? message.content : JSON.stringify(message.content ?? "")));
}

/** Resolves once the fake model has received `count` requests in all. */
export async function modelRequests(
  openai: FakeOpenAI,
  count: number,
  timeoutMs = 15_000,
): Promise<RecordedLlmRequest> {
  const deadline = Date.now() + timeoutMs;
  while (openai.requests.length < count) {
    if (Date.now() > deadline) throw new Error(`the model got ${openai.requests.length} requests, not ${count}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return openai.requests[count - 1] as RecordedLlmRequest;
}

/** Waits for a message (sent or edited) with exactly `text` in chat `chatId`. */
export function sentText(telegram: FakeTelegram, chatId: number, text: string, timeoutMs = 15_000) {
  return telegram.waitFor((call) => {
    const body = call.body as { text?: string; chat_id?: unknown } | undefined;
    return (
      (call.method === "sendMessage" || call.method === "editMessageText") &&
      body?.text === text &&
      String(body.chat_id) === String(chatId)
    );
  }, timeoutMs);
}

/** Everything the bot sent or edited into chat `chatId`, as one string. */
export function everythingSentTo(telegram: FakeTelegram, chatId: number): string {
  return telegram.calls
    .filter((call) => String((call.body as { chat_id?: unknown } | undefined)?.chat_id) === String(chatId))
    .map((call) => JSON.stringify(call.body))
    .join("\n");
}
