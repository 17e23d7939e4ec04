import type { InboundMessage } from "@chorus/gateway";
import { MemorySessionStore } from "@chorus/gateway";
import { longMarkdownReply, modelInput, startChannelGateway, tapInbound } from "@chorus/gateway-testing";
import { type FakeTelegram, startFakeTelegram, TELEGRAM_STRANGER, TestCleanup } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { createTelegramChannel } from "../src/index.js";

const cleanup = new TestCleanup();
afterEach(() => cleanup.closeAll());

type Script = Parameters<typeof startChannelGateway>[0]["script"];

async function start(script: Script) {
  const f = cleanup.track(await startFakeTelegram());
  const running = cleanup.track(await startOn(f, script));
  return { f, running };
}

/** A gateway with one polling Telegram channel on `f`; `seen` gets every inbound message the channel delivers. */
function startOn(f: FakeTelegram, script: Script, store?: MemorySessionStore, seen?: InboundMessage[]) {
  const channel = createTelegramChannel({ accountId: "tg", token: f.token, apiRoot: f.apiRoot });
  return startChannelGateway({
    channels: [seen === undefined ? channel : tapInbound(channel, seen)],
    config: {
      channels: [{ channel: "telegram", dmPolicy: "open", groupPolicy: "open", admins: [String(f.user.id)] }],
    },
    script,
    ...(store === undefined ? {} : { gateway: { store } }),
  });
}

/** What the bot's messages in a chat read now (Telegram shows the text without the HTML tags). */
function botTexts(f: FakeTelegram, chatId: number): string[] {
  return f
    .conversation(chatId)
    .filter((m) => m.from?.id === f.bots[0]?.user.id)
    .map((m) => m.text ?? "");
}

describe("Telegram ↔ grammy ↔ Gateway ↔ scripted model", () => {
  it("holds a DM conversation that remembers the earlier turn", async () => {
    const { f, running: g } = await start(["Nice to meet you, Alice.", "Your name is Alice."]);
    await f.injectDm({ text: "my name is Alice" });
    await expect.poll(() => botTexts(f, f.user.id)).toEqual(["Nice to meet you, Alice."]);
    await f.injectDm({ text: "what is my name?" });
    await expect.poll(() => botTexts(f, f.user.id)).toEqual(["Nice to meet you, Alice.", "Your name is Alice."]);

    const second = modelInput(g.streamFn, 1);
    expect(second).toContain("my name is Alice");
    expect(second).toContain("Nice to meet you, Alice.");
  });

  it("ignores a group message without a mention, answers a mention, and answers a topic in its topic", async () => {
    const { f, running: g } = await start(["Hello group!", "Hello topic!"]);
    await f.injectGroupMessage({ text: "nobody asked the bot" });
    await f.injectMention({ text: "are you there?" });
    await expect.poll(() => botTexts(f, f.group.id)).toEqual(["Hello group!"]);
    expect(g.streamFn.calls).toHaveLength(1);
    expect(modelInput(g.streamFn, 0)).not.toContain("nobody asked the bot");

    const handle = `@${f.bots[0]!.user.username}`;
    await f.injectUpdate(f.token, {
      message: {
        message_id: 500,
        date: Math.floor(Date.now() / 1000),
        chat: f.forum,
        from: f.user,
        text: `${handle} in the topic`,
        entities: [{ type: "mention", offset: 0, length: handle.length }],
        message_thread_id: 42,
        is_topic_message: true,
      },
    });
    await expect.poll(() => botTexts(f, f.forum.id)).toEqual(["Hello topic!"]);
    const answer = f.conversation(f.forum.id).find((m) => m.text === "Hello topic!");
    expect(answer?.message_thread_id).toBe(42);
  });

  it("registers /agents /status /new /stop /goal /usage /schedule with setMyCommands on start, and answers /status from the menu", async () => {
    const { f } = await start([]);
    // The gateway's start resolves only after the channel registered its commands.
    const registered = f.callsTo("setMyCommands");
    expect(registered).toHaveLength(1);
    const body = registered[0]?.body as { commands: Array<{ command: string; description: string }> } | undefined;
    const commands = body?.commands ?? [];
    expect(commands.map((c) => c.command)).toEqual(["agents", "status", "new", "stop", "goal", "usage", "schedule"]);
    expect(commands.every((c) => c.description.length > 0)).toBe(true);

    await f.injectCommand({ command: "status" });
    await expect.poll(() => botTexts(f, f.user.id).join("\n")).toContain("Agent main · model fake-model");
  });

  it("a restart whose getUpdates fails and re-serves answered updates causes no duplicate reply", async () => {
    const f = cleanup.track(await startFakeTelegram());
    const store = new MemorySessionStore();
    const first = cleanup.track(await startOn(f, ["first answer", "must not be sent"], store));
    await f.injectDm({ text: "one" });
    await expect.poll(() => botTexts(f, f.user.id)).toEqual(["first answer"]);
    await first.stop();

    // The process went away before a later getUpdates offset confirmed "one": Telegram serves it again, and the
    // new process's first poll fails once (auto-retry waits it out).
    expect(f.redeliver(f.token, 1)).toBe(1);
    f.failNext({ method: "getUpdates", status: 502, times: 1 });
    const seen: InboundMessage[] = [];
    const second = cleanup.track(await startOn(f, ["second answer", "must not be sent either"], store, seen));
    await f.injectDm({ text: "two" });
    await expect.poll(() => botTexts(f, f.user.id), { timeout: 10_000 }).toEqual(["first answer", "second answer"]);
    await second.gateway.idle();

    // The replay did reach the gateway (same update id), and only "two" was answered.
    expect(seen.map((m) => m.text)).toEqual(["one", "two"]);
    expect(f.callsTo("getUpdates").some((call) => call.status === 502)).toBe(true);
    expect(second.streamFn.calls).toHaveLength(1);
    expect(modelInput(second.streamFn, 0)).toContain("two");
    expect(botTexts(f, f.user.id)).toEqual(["first answer", "second answer"]);
  }, 20_000);

  it("shows /agents to an admin and refuses it to anyone else", async () => {
    const { f } = await start([]);
    await f.injectCommand({ command: "agents", from: TELEGRAM_STRANGER });
    await expect.poll(() => botTexts(f, TELEGRAM_STRANGER.id)).toEqual(["You are not authorised to use /agents."]);
    await f.injectCommand({ command: "agents" });
    await expect.poll(() => botTexts(f, f.user.id).join("\n")).toContain("Fleet: 1 agent(s)");
  });

  it("delivers a 10 000-character answer complete and in order, every message within 4 096 characters", async () => {
    const answer = longMarkdownReply(10_000);
    const { f } = await start([answer]);
    await f.injectDm({ text: "write a lot" });
    await expect.poll(() => botTexts(f, f.user.id).at(-1) ?? "", { timeout: 10_000 }).toContain("the end");
    const sent = f.callsTo("sendMessage").map((call) => (call.body as { text: string }).text);
    expect(sent.length).toBeGreaterThan(2);
    expect(sent.every((text) => text.length <= 4096)).toBe(true);
    const numbers = [
      ...botTexts(f, f.user.id)
        .join("\n")
        .matchAll(/paragraph (\d+) /g),
    ].map((m) => Number(m[1]));
    expect(numbers).toEqual([...answer.matchAll(/paragraph (\d+) /g)].map((m) => Number(m[1])));
  });

  it("streams previews with editMessageText at most about once a second per chat", async () => {
    const answer = "word ".repeat(300).trim();
    const chunks = answer.match(/[\s\S]{1,25}/g)!;
    // About 2.5 s of streaming: long enough for several preview edits.
    const { f } = await start([{ blocks: [{ type: "text", text: answer, chunks }], tokenDelayMs: 40 }]);
    await f.injectDm({ text: "stream something" });
    await expect.poll(() => botTexts(f, f.user.id), { timeout: 10_000 }).toEqual([answer]);
    const edits = f.callsTo("editMessageText").map((call) => call.at);
    expect(edits.length).toBeGreaterThan(1);
    // The channel's budget spaces edits by 1 s when sent; allow for request jitter on arrival.
    for (let i = 1; i < edits.length; i++) expect(edits[i]! - edits[i - 1]!).toBeGreaterThanOrEqual(900);
  });

  it("a 429 storm during a reply: the reply still arrives complete, exactly once", async () => {
    const answer = `${"a".repeat(4000)}\n\n${"b".repeat(4000)}`;
    const { f } = await start([answer]);
    // Retry-after 0 (Telegram's is whole seconds): waiting it out is proven in outbound.test.ts; here it would only idle.
    f.failNext({ method: "sendMessage", status: 429, times: 3, retryAfterSeconds: 0 });
    await f.injectDm({ text: "go" });
    await expect.poll(() => botTexts(f, f.user.id), { timeout: 15_000 }).toEqual(["a".repeat(4000), "b".repeat(4000)]);
    expect(f.callsTo("sendMessage").filter((call) => call.status === 429)).toHaveLength(3);
  }, 20_000);
});
