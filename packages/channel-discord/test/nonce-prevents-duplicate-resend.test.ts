import { GatewayEventBus, MemorySessionStore, OutboxDispatcher } from "@chorus/gateway";
import { InboundCollector } from "@chorus/gateway-testing";
import { type FakeDiscord, startFakeDiscord, TestCleanup } from "@chorus/testkit";
import { afterEach, expect, it } from "vitest";
import { createDiscordChannel } from "../src/index.js";

const cleanup = new TestCleanup();
afterEach(() => cleanup.closeAll());

function botMessages(f: FakeDiscord, channelId: string): { id: string; content: string }[] {
  return f.conversation(channelId).filter((m) => m.author.id === f.bots[0]?.user.id);
}

it("sends with the same idempotency key once: Discord's enforced nonce returns the first message", async () => {
  const fake = cleanup.track(await startFakeDiscord());
  const channel = cleanup.track(createDiscordChannel({ accountId: "main", token: fake.token, restApi: fake.restApi }));
  await channel.start(new InboundCollector().sink);
  const dm = fake.dmChannel().id;
  const target = { chatType: "dm" as const, chatId: dm };

  const first = await channel.send(target, { text: "once", idempotencyKey: "outbox:7:0" });
  const again = await channel.send(target, { text: "once (again)", idempotencyKey: "outbox:7:0" });
  const other = await channel.send(target, { text: "another", idempotencyKey: "outbox:8:0" });

  expect(again.messageId).toBe(first.messageId);
  expect(other.messageId).not.toBe(first.messageId);
  expect(botMessages(fake, dm).map((m) => m.content)).toEqual(["once", "another"]);
});

it("does not post a reply twice when a restarted outbox resends an entry whose send already reached Discord", async () => {
  const fake = cleanup.track(await startFakeDiscord());
  const channel = cleanup.track(createDiscordChannel({ accountId: "main", token: fake.token, restApi: fake.restApi }));
  await channel.start(new InboundCollector().sink);
  const dm = fake.dmChannel().id;
  const store = new MemorySessionStore();
  const sessionKey = "main:main:discord:dm:u1";
  await store.ensureSession({ key: sessionKey, agentId: "main", channel: "discord", accountId: "main", chatId: dm });
  const payload = { channel: "discord", accountId: "main", target: { chatType: "dm", chatId: dm }, text: "the reply" };
  const [entry] = await store.enqueueOutbox([{ sessionKey, kind: "reply", payload }]);
  // The previous process claimed the entry and sent it, then died before marking it sent.
  await store.claimOutboxEntry(entry!.id);
  const sent = await channel.send(payload.target as { chatType: "dm"; chatId: string }, {
    text: "the reply",
    idempotencyKey: `outbox:${entry!.id}:0`,
  });

  const dispatcher = cleanup.track(
    new OutboxDispatcher({
      store,
      events: new GatewayEventBus(),
      channelFor: () => channel,
      acceptSubagentResult: async () => {},
    }),
  );
  await dispatcher.start();
  await dispatcher.idle();

  expect(botMessages(fake, dm).map((m) => m.content)).toEqual(["the reply"]);
  const [after] = await store.listOutbox({ sessionKey });
  expect(after).toMatchObject({ status: "sent", platformMessageIds: [sent.messageId] });
});
