import { fileURLToPath } from "node:url";
import type { BenchSystem, RunningSystem, SystemContext } from "./bench-system.js";
import { cpuProfileFlags } from "./bench-system.js";
import { type ChatSdkHandler, chatSdkBotEnv } from "./chat-sdk-bot-config.js";
import { startChildBot } from "./child-bot.js";
import { modelAnswer } from "./fake-model.js";
import { deleteRedisKeys } from "./redis-keys.js";

/** Redis the Redis-state bots use; the bench removes their keys after each run. */
export const REDIS_URL = process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379";
const READY_TIMEOUT_MS = 30_000;
const WEBHOOK_SECRET = "bench_webhook_secret";

// The compiled bot script; from src/ (vitest) and dist/ alike this is bench/dist/side-by-side/.
const BOT_SCRIPT = fileURLToPath(new URL("../../dist/side-by-side/chat-sdk-bot.js", import.meta.url));

/** Where the compiled Chat SDK bot lives (built by `tsc -p tsconfig.build.json`). */
export function chatSdkBotScript(): string {
  return BOT_SCRIPT;
}

const handlerLabels: Record<ChatSdkHandler, string> = {
  echo: "Chat SDK echo",
  ai: "Chat SDK + AI SDK",
  fetch: "Chat SDK + fetch",
};

/** A Chat SDK bot (`chat` + `@chat-adapter/<platform>`): echo, AI SDK or plain-fetch handler, memory or Redis state. */
export function chatSdkSystem(handler: ChatSdkHandler, state: "memory" | "redis"): BenchSystem {
  const what = handlerLabels[handler];
  return {
    id: `chat-sdk-${handler}-${state}`,
    label: `${what} (${state === "memory" ? "memory" : "Redis"})`,
    expectedReply: (text, key) => (handler === "echo" ? `echo: ${text}` : modelAnswer(key)),
    async start(context: SystemContext): Promise<RunningSystem> {
      const platform = context.platform;
      const keyPrefix = `chorus-bench:${context.runId}`;
      const env = chatSdkBotEnv({
        platform: platform.name,
        handler,
        state,
        concurrency: context.chatSdkConcurrency,
        redisUrl: REDIS_URL,
        redisKeyPrefix: keyPrefix,
        apiUrl: platform.name === "telegram" ? platform.fake.apiRoot : platform.fake.apiUrl,
        token: platform.name === "telegram" ? platform.fake.token : platform.fake.botToken,
        secret: platform.name === "telegram" ? WEBHOOK_SECRET : platform.fake.signingSecret,
        modelUrl: context.model.url,
      });
      const child = startChildBot([...cpuProfileFlags(context.cpuProfileDir), BOT_SCRIPT], env);
      const cleanUp = async (): Promise<void> => {
        await child.stop();
        if (state === "redis") await deleteRedisKeys(REDIS_URL, keyPrefix).catch(() => 0);
      };
      let url = "";
      const activate = async (): Promise<void> => {
        if (platform.name === "telegram") await platform.setWebhook(url, WEBHOOK_SECRET);
        else platform.fake.setEventsUrl(url);
      };
      try {
        const ready = await child.waitForLine(/^\{"port":\d+\}$/, READY_TIMEOUT_MS);
        const { port } = JSON.parse(ready) as { port: number };
        url = `http://127.0.0.1:${port}/`;
        await activate();
      } catch (error) {
        await cleanUp();
        throw error;
      }
      return { pid: child.pid, activate, stop: cleanUp };
    },
  };
}
