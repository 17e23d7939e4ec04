import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type InboundSink, TestChannel } from "@chorus/gateway";
import { afterEach, describe, expect, it } from "vitest";
import type { BotConfig } from "../src/config/bot-config-schema.js";
import { parseBotConfig } from "../src/config/load-bot-config.js";
import { BotRuntime } from "../src/runtime/bot-runtime.js";
import type { ChannelSpec } from "../src/runtime/channel-factory.js";
import { silentLogger } from "./support/silent-logger.js";
import { browserCookies } from "./support/webchat-bot-process.js";
import { WebchatClient } from "./support/webchat-client.js";

// A page opened while the bot is still starting (WebChat already serving, no Gateway yet) gets its stored
// conversation in its first frame, not an empty chat it would keep. The window is held open by a second channel
// whose start the test releases: channels start one after another (WebChat first), and the Gateway is built only
// once every channel has started.

/** A channel whose platform connection comes up only when the test says so. */
class SlowToStartChannel extends TestChannel {
  readonly startCalled: Promise<void>;
  readonly #markCalled: () => void;
  #release: () => void = () => {};
  readonly #released = new Promise<void>((resolve) => {
    this.#release = resolve;
  });

  constructor() {
    super({ id: "terminal", accountId: "local" });
    let markCalled = (): void => {};
    this.startCalled = new Promise((resolve) => {
      markCalled = resolve;
    });
    this.#markCalled = markCalled;
  }

  release(): void {
    this.#release();
  }

  override async start(sink: InboundSink): Promise<void> {
    this.#markCalled();
    await this.#released;
    await super.start(sink);
  }
}

let dir: string | undefined;
const runtimes: BotRuntime[] = [];
const clients: WebchatClient[] = [];
const slowChannels: SlowToStartChannel[] = [];
/** Starts still under way when a test ends: shutting down waits for them (a failed assertion leaves one held). */
const starts: Promise<void>[] = [];

afterEach(async () => {
  for (const channel of slowChannels.splice(0)) channel.release();
  await Promise.allSettled(starts.splice(0));
  await Promise.all(clients.splice(0).map((client) => client.close()));
  for (const runtime of runtimes.splice(0)) await runtime.shutdown();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

function configIn(dataDir: string): BotConfig {
  // The default store (SQLite in the data dir) and the WebChat key file both outlive a runtime.
  const parsed = parseBotConfig({
    dataDir,
    agents: [{ id: "assistant", model: "demo" }],
    channels: { webchat: [{ accountId: "local", port: 0 }] },
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return parsed.config;
}

function runtimeIn(dataDir: string, extraChannels: readonly ChannelSpec[] = []): BotRuntime {
  const runtime = new BotRuntime({
    config: configIn(dataDir),
    source: "test",
    logger: silentLogger(),
    cwd: dataDir,
    demoTokenDelayMs: 0,
    extraChannels,
  });
  runtimes.push(runtime);
  return runtime;
}

async function connect(url: string | undefined, cookie: string): Promise<WebchatClient> {
  const client = await WebchatClient.connect(url ?? "", { cookie, localAddress: "127.0.0.1" });
  clients.push(client);
  return client;
}

describe("WebChat history while the bot starts", () => {
  it("a page opened before the Gateway exists gets the browser's stored conversation", async () => {
    dir = await mkdtemp(join(tmpdir(), "chorus-webchat-starting-"));

    // A first run: the browser chats with the demo model; what the store holds is what a reload of the page shows.
    const first = runtimeIn(dir);
    await first.start();
    const cookie = await browserCookies(first.webchatUrl ?? "");
    const chatting = await connect(first.webchatUrl, cookie);
    await chatting.ask("dm", "please remember the word KESTREL-31");
    await first.gateway?.idle();
    const stored = (await connect(first.webchatUrl, cookie)).hello.history;
    const answer = stored.find((message) => message.room === "dm" && message.role === "bot");
    expect(answer?.text).toBeTruthy();
    await Promise.all(clients.splice(0).map((client) => client.close()));
    await first.shutdown();

    // The second run is held after WebChat started and before the Gateway exists.
    const slow = new SlowToStartChannel();
    slowChannels.push(slow);
    const second = runtimeIn(dir, [
      { key: "terminal/local", kind: "terminal", accountId: "local", fingerprint: "slow", create: () => slow },
    ]);
    const starting = second.start();
    starts.push(starting);
    await slow.startCalled;
    expect(second.gateway).toBeUndefined();
    expect(second.readiness().ready).toBe(false);

    const early = await connect(second.webchatUrl, cookie);
    expect(second.gateway).toBeUndefined(); // still in the window when the page got its first frame
    expect(early.hello.history).toContainEqual(
      expect.objectContaining({ room: "dm", role: "user", text: "please remember the word KESTREL-31" }),
    );
    expect(early.hello.history).toContainEqual(
      expect.objectContaining({ room: "dm", role: "bot", text: answer?.text }),
    );

    slow.release();
    await starting;
    expect(second.gateway).toBeDefined();
  }, 60_000);
});
