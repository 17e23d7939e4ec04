#!/usr/bin/env node
// A Chat SDK bot as its users write one, run as its own process by the side-by-side bench: a node:http server in
// front of `bot.webhooks.<platform>`, a DM handler that echoes, asks the model through the AI SDK, or asks it with one
// plain streamed `fetch`; memory or Redis state. Configured by environment (see chat-sdk-bot-config.ts); prints one JSON line `{ "port": N }` when it
// listens, and exits 0 on SIGTERM (so `--cpu-prof` writes its profile).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { createSlackAdapter } from "@chat-adapter/slack";
import { createMemoryState } from "@chat-adapter/state-memory";
import { createRedisState } from "@chat-adapter/state-redis";
import { createTelegramAdapter } from "@chat-adapter/telegram";
import { streamText } from "ai";
import { type Adapter, Chat, type StateAdapter } from "chat";
import { type ChatSdkBotConfig, readChatSdkBotConfig } from "./chat-sdk-bot-config.js";
import { serveWebHandler } from "./web-request-bridge.js";

// The casts: the adapters declare `botUserId?: string | undefined`, which `Adapter` does not accept under
// exactOptionalPropertyTypes; and @chat-adapter/state-memory 4.41.0 (its latest) pins chat 4.41.0, so its types are
// another copy's — what a user installing chat 4.41.1 gets too.
function adapterFor(config: ChatSdkBotConfig): Adapter {
  if (config.platform === "telegram") {
    return createTelegramAdapter({
      botToken: config.token,
      apiBaseUrl: config.apiUrl,
      secretToken: config.secret,
      mode: "webhook",
      userName: "chorus_test_bot",
    }) as unknown as Adapter;
  }
  return createSlackAdapter({
    botToken: config.token,
    signingSecret: config.secret,
    apiUrl: config.apiUrl,
  }) as unknown as Adapter;
}

/**
 * The leanest model call a Chat SDK user writes without an SDK: one streamed Chat Completions `POST` (the body the AI SDK
 * handler sends: the message alone as the prompt), the SSE read to its end, the `delta.content`s joined.
 * No retries, no timeout beyond fetch's own. Contract: throws on a non-2xx answer or an unparsable data line.
 */
async function askWithFetch(modelUrl: string, prompt: string): Promise<string> {
  const response = await fetch(`${modelUrl}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer sk-bench-0000" },
    body: JSON.stringify({ model: "fake-model", messages: [{ role: "user", content: prompt }], stream: true }),
  });
  if (!response.ok || response.body === null) throw new Error(`chat-sdk-bot: the model answered ${response.status}`);
  const decoder = new TextDecoder();
  let pending = "";
  let text = "";
  const takeLine = (line: string): void => {
    if (!line.startsWith("data:")) return;
    const data = line.slice(5).trim();
    if (data === "[DONE]") return;
    const chunk = JSON.parse(data) as { choices?: { delta?: { content?: string | null } }[] };
    text += chunk.choices?.[0]?.delta?.content ?? "";
  };
  for await (const bytes of response.body) {
    pending += decoder.decode(bytes, { stream: true });
    let end = pending.indexOf("\n");
    while (end !== -1) {
      takeLine(pending.slice(0, end).trim());
      pending = pending.slice(end + 1);
      end = pending.indexOf("\n");
    }
  }
  takeLine((pending + decoder.decode()).trim());
  return text;
}

function stateFor(config: ChatSdkBotConfig): StateAdapter {
  return config.state === "memory"
    ? (createMemoryState() as unknown as StateAdapter)
    : createRedisState({ url: config.redisUrl, keyPrefix: config.redisKeyPrefix });
}

async function main(): Promise<void> {
  const config = readChatSdkBotConfig(process.env);
  const state = stateFor(config);
  const bot = new Chat({
    userName: "chorus_test_bot",
    adapters: { [config.platform]: adapterFor(config) },
    state,
    // The bench's choice (default "concurrent"): Chat SDK's own default, "drop", throws away a message arriving while
    // the chat's previous one still holds the lock, and "queue" can strand one — see bench/README.md.
    concurrency: config.concurrency,
    logger: "warn",
  });
  const model = createOpenAICompatible({ name: "bench", baseURL: config.modelUrl, apiKey: "sk-bench-0000" })(
    "fake-model",
  );
  bot.onDirectMessage(async (thread, message) => {
    if (config.handler === "echo") {
      await thread.post(`echo: ${message.text}`);
      return;
    }
    if (config.handler === "fetch") {
      await thread.post(await askWithFetch(config.modelUrl, message.text));
      return;
    }
    const result = streamText({ model, prompt: message.text });
    let text = "";
    for await (const delta of result.textStream) text += delta;
    await thread.post(text);
  });
  const webhook = bot.webhooks[config.platform];
  if (webhook === undefined) throw new Error(`chat-sdk-bot: no webhook handler for ${config.platform}`);
  const background = new Set<Promise<unknown>>();
  const waitUntil = (task: Promise<unknown>): void => {
    background.add(task);
    void task.finally(() => background.delete(task));
  };
  const server = createServer((req, res) => {
    void serveWebHandler(req, res, (request) => webhook(request, { waitUntil }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  await bot.initialize();
  process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`);

  let stopping = false;
  process.on("SIGTERM", () => {
    if (stopping) return;
    stopping = true;
    server.closeAllConnections();
    server.close();
    void Promise.allSettled([...background])
      .then(() => bot.shutdown())
      .finally(() => process.exit(0));
  });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
