import type { InboundMessage } from "@chorus/gateway";
import { InboundCollector } from "@chorus/gateway-testing";
import { startFakeTelegram, TestCleanup } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { createTelegramChannel } from "../src/index.js";

const cleanup = new TestCleanup();
afterEach(() => cleanup.closeAll());

describe("Telegram long polling confirms an update only after the gateway stored it", () => {
  it("an update whose storing had not finished when its poller died is fetched again by the next poller", async () => {
    const f = cleanup.track(await startFakeTelegram());
    // The first poller's store hangs on the message (a process about to be killed -9 in the middle of the write).
    const taken: InboundMessage[] = [];
    let release: () => void = () => {};
    const hanging = new Promise<void>((resolve) => {
      release = resolve;
    });
    const first = createTelegramChannel({ accountId: "tg", token: f.token, apiRoot: f.apiRoot, longPollSeconds: 1 });
    await first.start(async (message) => {
      taken.push(message);
      await hanging;
    });
    cleanup.track({
      stop: async () => {
        release();
        await first.stop();
      },
    });

    await f.injectDm({ text: "do not lose me" });
    await expect.poll(() => taken.map((m) => m.text), { timeout: 5_000 }).toEqual(["do not lose me"]);
    const polls = f.callsTo("getUpdates").length;
    // Long polls of a second each would have gone on meanwhile, the next one confirming the message not yet stored.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(f.callsTo("getUpdates")).toHaveLength(polls);

    // The poller dies here without storing it; the next one (another instance, after the lease moved) hears it.
    const inbox = new InboundCollector();
    const next = createTelegramChannel({ accountId: "tg", token: f.token, apiRoot: f.apiRoot, longPollSeconds: 1 });
    cleanup.track(next);
    await next.start(inbox.sink);
    expect((await inbox.byText("do not lose me")).chatId).toBe(String(f.user.id));
  });

  it("confirms what it stored when it stops, so a restart hears nothing twice", async () => {
    const f = cleanup.track(await startFakeTelegram());
    const inbox = new InboundCollector();
    const channel = createTelegramChannel({ accountId: "tg", token: f.token, apiRoot: f.apiRoot, longPollSeconds: 1 });
    // The last message is still being stored when the bot is told to stop.
    await channel.start(async (message) => {
      await inbox.sink(message);
      if (message.text === "two") await new Promise((resolve) => setTimeout(resolve, 300));
    });
    await f.injectDm({ text: "one" });
    await f.injectDm({ text: "two" });
    await inbox.byText("two");
    await channel.stop();

    const again = new InboundCollector();
    const restarted = createTelegramChannel({
      accountId: "tg",
      token: f.token,
      apiRoot: f.apiRoot,
      longPollSeconds: 1,
    });
    cleanup.track(restarted);
    await restarted.start(again.sink);
    await f.injectDm({ text: "three" });
    await again.byText("three");
    expect(again.messages.map((m) => m.text)).toEqual(["three"]);
  });
});
