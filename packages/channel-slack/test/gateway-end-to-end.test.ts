import type { GatewayOptions, InboundMessage } from "@chorus/gateway";
import { longMarkdownReply, modelInput, startChannelGateway, tapInbound } from "@chorus/gateway-testing";
import { type FakeSlack, SLACK_STRANGER, startFakeSlack, TestCleanup } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { slackChannelOn } from "./slack-channel-on.js";

const cleanup = new TestCleanup();
afterEach(() => cleanup.closeAll());

async function start(
  script: Parameters<typeof startChannelGateway>[0]["script"],
  {
    mode = "socket",
    clientPingTimeoutMs,
    webApiRetryDelayMs,
    seen,
    gateway,
  }: {
    mode?: "socket" | "http";
    clientPingTimeoutMs?: number;
    webApiRetryDelayMs?: number;
    seen?: InboundMessage[];
    gateway?: Partial<GatewayOptions>;
  } = {},
) {
  const f = cleanup.track(await startFakeSlack({ mode, pingIntervalMs: 1_000 }));
  const channel = slackChannelOn(f, {
    ...(clientPingTimeoutMs === undefined ? {} : { clientPingTimeoutMs }),
    ...(webApiRetryDelayMs === undefined ? {} : { webApiRetryDelayMs }),
  });
  const running = cleanup.track(
    await startChannelGateway({
      channels: [seen === undefined ? channel : tapInbound(channel, seen)],
      config: { channels: [{ channel: "slack", dmPolicy: "open", groupPolicy: "open", admins: [f.user.id] }] },
      script,
      ...(gateway === undefined ? {} : { gateway }),
    }),
  );
  if (mode === "socket") await f.waitForSocket();
  // HTTP mode: the channel's server listens once the gateway started it; Slack is told its Request URL.
  else f.setEventsUrl(channel.eventsUrl ?? "");
  return { f, running };
}

function botMessages(f: FakeSlack, channel: string) {
  return f.conversation(channel).filter((m) => m.bot_id !== undefined);
}

function botTexts(f: FakeSlack, channel: string): string[] {
  return botMessages(f, channel).map((m) => m.text);
}

describe("Slack ↔ bolt (Socket Mode) ↔ Gateway ↔ scripted model", () => {
  it("holds a DM conversation that remembers the earlier turn", async () => {
    const { f, running: g } = await start(["Nice to meet you, Alice.", "Your name is Alice."]);
    await f.injectDm({ text: "my name is Alice" });
    await expect.poll(() => botTexts(f, f.dmChannel())).toEqual(["Nice to meet you, Alice."]);
    await f.injectDm({ text: "what is my name?" });
    await expect.poll(() => botTexts(f, f.dmChannel())).toEqual(["Nice to meet you, Alice.", "Your name is Alice."]);
    expect(modelInput(g.streamFn, 1)).toContain("my name is Alice");
    expect(modelInput(g.streamFn, 1)).toContain("Nice to meet you, Alice.");
  });

  it("answers a quick reply with one Web API call: no working reaction to add and remove", async () => {
    const { f } = await start(["Quick answer."], { gateway: { typingDelayMs: 10_000, replyMode: "block" } });
    const before = f.calls.length;
    await f.injectDm({ text: "quick one" });
    await expect.poll(() => botTexts(f, f.dmChannel())).toEqual(["Quick answer."]);
    const webCalls = f.calls.slice(before).filter((call) => call.httpMethod !== "WS");
    expect(webCalls.map((call) => call.method)).toEqual(["chat.postMessage"]);
  });

  it("marks a slow reply with the working reaction and removes it once the answer is sent", async () => {
    const { f } = await start([{ text: "Slow answer.", endDelayMs: 1_000 }], {
      gateway: { typingDelayMs: 200, replyMode: "block" },
    });
    const before = f.calls.length;
    await f.injectDm({ text: "slow one" });
    await expect.poll(() => f.callsTo("reactions.remove").length, { timeout: 10_000 }).toBe(1);
    const methods = f.calls
      .slice(before)
      .filter((call) => call.httpMethod !== "WS")
      .map((call) => call.method);
    expect(methods).toEqual(["reactions.add", "chat.postMessage", "reactions.remove"]);
    expect(botTexts(f, f.dmChannel())).toEqual(["Slow answer."]);
  });

  it("ignores an unaddressed channel message, answers a mention, and answers in a thread in that thread", async () => {
    const { f, running: g } = await start(["Hello channel!", "Hello thread!"]);
    await f.injectChannelMessage({ text: "nobody asked the bot" });
    await f.injectMention({ text: "are you there?" });
    await expect.poll(() => botTexts(f, f.channels.general)).toEqual(["Hello channel!"]);
    expect(botMessages(f, f.channels.general)[0]?.thread_ts).toBeUndefined();
    expect(g.streamFn.calls).toHaveLength(1);
    expect(modelInput(g.streamFn, 0)).not.toContain("nobody asked the bot");

    const root = botMessages(f, f.channels.general)[0]!.ts;
    await f.injectMention({ text: "and in a thread?", threadTs: root });
    await expect.poll(() => botTexts(f, f.channels.general)).toEqual(["Hello channel!", "Hello thread!"]);
    expect(botMessages(f, f.channels.general)[1]?.thread_ts).toBe(root);
  });

  it("a redelivered event does not cause a second reply", async () => {
    const { f, running: g } = await start(["only once", "a second reply must not happen"]);
    const dm = await f.injectDm({ text: "hello" });
    await expect.poll(() => botTexts(f, f.dmChannel())).toEqual(["only once"]);
    await f.redeliver(dm.item.event_id);
    await f.injectDm({ text: "marker" });
    await expect.poll(() => botTexts(f, f.dmChannel())).toEqual(["only once", "a second reply must not happen"]);
    // The second reply answered "marker", not the redelivered "hello".
    expect(modelInput(g.streamFn, 1)).toContain("marker");
  });

  it("a dropped Socket Mode link reconnects; an event replayed on the new link is not answered again", async () => {
    // A short ping timeout also shortens the client's wait before it reconnects.
    const seen: InboundMessage[] = [];
    const { f, running: g } = await start(["first answer", "second answer", "a duplicate must not happen"], {
      clientPingTimeoutMs: 300,
      seen,
    });
    const one = await f.injectDm({ text: "one" });
    await expect.poll(() => botTexts(f, f.dmChannel())).toEqual(["first answer"]);

    expect(f.dropSocket()).toBe(1);
    await f.waitForCall("apps.connections.open", 2, 15_000);
    await f.waitForSocket();
    expect(await f.redeliver(one.item.event_id)).toMatchObject({ ok: true });
    await f.injectDm({ text: "two" });
    await expect.poll(() => botTexts(f, f.dmChannel()), { timeout: 10_000 }).toEqual(["first answer", "second answer"]);
    await g.gateway.idle();
    expect(g.streamFn.calls).toHaveLength(2);
    expect(modelInput(g.streamFn, 1)).toContain("two");
    expect(botTexts(f, f.dmChannel())).toEqual(["first answer", "second answer"]);
    // The replay did reach the gateway on the new link, with the original event id.
    expect(seen.filter((m) => m.eventId === one.item.event_id)).toHaveLength(2);
  }, 20_000);

  it("answers /agents from an admin and refuses it to anyone else", async () => {
    const { f } = await start([]);
    // Slash commands are answered through their response_url, only to the person who asked.
    await f.injectSlashCommand({ command: "/agents", user: SLACK_STRANGER });
    const refusal = await f.waitForCall("response_url", 1, 5_000);
    expect(refusal.body).toMatchObject({ response_type: "ephemeral", text: "You are not authorised to use /agents." });
    await f.injectSlashCommand({ command: "/chorus", text: "agents" });
    const fleet = await f.waitForCall("response_url", 2, 5_000);
    expect(fleet.body).toMatchObject({ response_type: "ephemeral" });
    expect(String((fleet.body as { text?: unknown }).text)).toContain("Fleet*: 1 agent(s)");
    expect(botTexts(f, f.channels.general)).toEqual([]);
  });

  it("delivers a 10 000-character answer complete, in order, in chunks of at most 3 500 characters", async () => {
    const answer = longMarkdownReply(10_000);
    const { f } = await start([answer]);
    await f.injectDm({ text: "write a lot" });
    await expect.poll(() => botTexts(f, f.dmChannel()).at(-1) ?? "", { timeout: 10_000 }).toContain("the end");
    const messages = botTexts(f, f.dmChannel());
    expect(messages.length).toBeGreaterThan(2);
    expect(messages.every((text) => text.length <= 3500)).toBe(true);
    const numbers = [...messages.join("\n").matchAll(/paragraph (\d+) /g)].map((match) => Number(match[1]));
    expect(numbers).toEqual([...answer.matchAll(/paragraph (\d+) /g)].map((match) => Number(match[1])));
  });

  it("a 429 storm during a reply: the reply still arrives complete, exactly once", async () => {
    const answer = `${"a".repeat(3000)}\n\n${"b".repeat(3000)}`;
    const { f } = await start([answer], {
      gateway: { outbox: { pollMs: 50, baseRetryMs: 50 } },
      webApiRetryDelayMs: 10,
    });
    // Four in a row: more than the WebClient's own retries, so the outbox retries the rest. Retry-after 0 (Slack's is
    // whole seconds): waiting it out is proven in outbound.test.ts; here it would only add seconds of idling.
    f.failNext({ method: "chat.postMessage", status: 429, times: 4, retryAfterSeconds: 0 });
    await f.injectDm({ text: "go" });
    await expect
      .poll(() => botTexts(f, f.dmChannel()), { timeout: 15_000 })
      .toEqual(["a".repeat(3000), "b".repeat(3000)]);
    expect(f.callsTo("chat.postMessage").filter((call) => call.status === 429)).toHaveLength(4);
  }, 20_000);

  it("keeps chat.update preview edits to about one a second per conversation while streaming", async () => {
    const answer = "word ".repeat(300).trim();
    const chunks = answer.match(/[\s\S]{1,25}/g)!;
    // About 2.5 s of streaming: long enough for several preview edits.
    const { f } = await start([{ blocks: [{ type: "text", text: answer, chunks }], tokenDelayMs: 40 }]);
    await f.injectDm({ text: "stream something" });
    await expect.poll(() => botTexts(f, f.dmChannel()), { timeout: 10_000 }).toEqual([answer]);
    const edits = f.callsTo("chat.update").map((call) => call.at);
    expect(edits.length).toBeGreaterThan(1);
    // The channel's budget spaces edits by 1 s when sent; allow for request jitter on arrival.
    for (let i = 1; i < edits.length; i++) expect(edits[i]! - edits[i - 1]!).toBeGreaterThanOrEqual(900);
  });

  it("removes the working reaction of a streamed answer once the run ends, though the answer is an edit", async () => {
    const answer = "word ".repeat(100).trim();
    const chunks = answer.match(/[\s\S]{1,25}/g)!;
    // The preview message is out before the reaction (at 200 ms); the final answer then arrives as an edit of it.
    const { f } = await start([{ blocks: [{ type: "text", text: answer, chunks }], tokenDelayMs: 40 }], {
      gateway: { typingDelayMs: 200 },
    });
    await f.injectDm({ text: "stream something slowly" });
    await expect.poll(() => botTexts(f, f.dmChannel()), { timeout: 10_000 }).toEqual([answer]);
    await expect.poll(() => f.callsTo("reactions.remove").length, { timeout: 5_000 }).toBe(1);
    expect(f.callsTo("reactions.add")).toHaveLength(1);
    expect(f.callsTo("chat.update").length).toBeGreaterThan(0);
  });

  // Slack has no API to register slash commands (they are declared in the app manifest: /agents and /chorus), so
  // the native-command check here is that a declared command reaches the gateway's commands and is answered.
  it("routes /chorus status to the gateway's /status and answers it in the channel", async () => {
    const { f, running: g } = await start([]);
    await f.injectSlashCommand({ command: "/chorus", text: "status" });
    const answer = await f.waitForCall("response_url", 1, 5_000);
    expect(answer.body).toMatchObject({ response_type: "in_channel" });
    expect(String((answer.body as { text?: unknown }).text)).toContain("*Agent* main · *model* fake-model");
    expect(g.streamFn.calls).toHaveLength(0);
  });
});

describe("Slack ↔ bolt (HTTP mode) ↔ Gateway ↔ scripted model", () => {
  it("holds a signed DM conversation that remembers the earlier turn; a retried delivery is not answered again", async () => {
    const seen: InboundMessage[] = [];
    const { f, running: g } = await start(["Nice to meet you, Alice.", "Your name is Alice.", "never sent"], {
      mode: "http",
      seen,
    });
    const first = await f.injectDm({ text: "my name is Alice" });
    expect(first).toMatchObject({ ok: true, status: 200 });
    await expect.poll(() => botTexts(f, f.dmChannel())).toEqual(["Nice to meet you, Alice."]);

    // Slack retries with X-Slack-Retry-Num and the same event_id when it thinks the ack was lost.
    expect(await f.redeliver(first.item.event_id)).toMatchObject({ ok: true });
    await f.injectDm({ text: "what is my name?" });
    await expect.poll(() => botTexts(f, f.dmChannel())).toEqual(["Nice to meet you, Alice.", "Your name is Alice."]);
    await g.gateway.idle();
    expect(g.streamFn.calls).toHaveLength(2);
    expect(modelInput(g.streamFn, 1)).toContain("my name is Alice");
    expect(modelInput(g.streamFn, 1)).toContain("Nice to meet you, Alice.");
    expect(botTexts(f, f.dmChannel())).toEqual(["Nice to meet you, Alice.", "Your name is Alice."]);
    // The retry did reach the gateway, with the original event id.
    expect(seen.map((m) => [m.eventId, m.text])).toEqual([
      [first.item.event_id, "my name is Alice"],
      [first.item.event_id, "my name is Alice"],
      [expect.any(String), "what is my name?"],
    ]);
  });
});
