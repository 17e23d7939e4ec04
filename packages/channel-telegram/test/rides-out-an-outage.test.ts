import { countRetriedDeliveries, shutsGateWhileAnswering, startChannelGateway } from "@chorus/gateway-testing";
import { type FakeTelegram, startFakeTelegram, startNetworkGate, TestCleanup } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { createTelegramChannel } from "../src/index.js";

const cleanup = new TestCleanup();
afterEach(() => cleanup.closeAll());

function botTexts(f: FakeTelegram): string[] {
  return f
    .conversation(f.user.id)
    .filter((m) => m.from?.id === f.bots[0]?.user.id)
    .map((m) => m.text ?? "");
}

describe("Telegram ↔ grammy ↔ Gateway when Telegram cannot be reached for a while", () => {
  it("fails the send at once, retries it through the outbox, and delivers it once when Telegram is back", async () => {
    const f = cleanup.track(await startFakeTelegram());
    const gate = cleanup.track(await startNetworkGate(f.apiRoot));
    const reported: unknown[] = [];
    const channel = createTelegramChannel({
      accountId: "tg",
      token: f.token,
      apiRoot: gate.url,
      // Failed polls retried every 100 ms instead of every second: the outage below sees six of them sooner.
      pollRetryMs: 100,
      onError: (error) => reported.push(error),
    });
    const g = cleanup.track(
      await startChannelGateway({
        channels: [channel],
        config: { channels: [{ channel: "telegram", dmPolicy: "open" }] },
        // Telegram becomes unreachable while the model writes the first answer.
        script: shutsGateWhileAnswering(gate, "the answer", "still here"),
        gateway: { outbox: { baseRetryMs: 50, pollMs: 20 } },
      }),
    );
    const retried = countRetriedDeliveries(g.gateway);

    await f.injectDm({ text: "question" });
    // The send fails as a network error (not retried inside grammy for minutes) and stays in the outbox for a retry.
    await expect.poll(retried, { timeout: 5_000 }).toBeGreaterThanOrEqual(2);
    expect(f.callsTo("sendMessage")).toHaveLength(0);
    // Polling keeps trying too, and the outage is reported once, not once per failed poll.
    await expect.poll(() => gate.refused, { timeout: 5_000 }).toBeGreaterThanOrEqual(6);
    expect(reported).toHaveLength(1);

    gate.open();
    await expect.poll(() => botTexts(f), { timeout: 5_000 }).toEqual(["the answer"]);
    // Polling is back as well: a new message is heard and answered.
    await f.injectDm({ text: "are you there?" });
    await expect.poll(() => botTexts(f), { timeout: 5_000 }).toEqual(["the answer", "still here"]);
    expect(f.callsTo("sendMessage")).toHaveLength(2);
    expect(await g.gateway.store.listOutbox({ status: "failed" })).toEqual([]);
  });

  it("notices a connection that died silently within the long poll plus the request margin, and hears new messages again", async () => {
    const f = cleanup.track(await startFakeTelegram());
    const gate = cleanup.track(await startNetworkGate(f.apiRoot));
    const channel = createTelegramChannel({
      accountId: "tg",
      token: f.token,
      apiRoot: gate.url,
      longPollSeconds: 1,
      requestMarginSeconds: 2,
    });
    cleanup.track(
      await startChannelGateway({
        channels: [channel],
        config: { channels: [{ channel: "telegram", dmPolicy: "open" }] },
        script: ["before", "after"],
      }),
    );
    await f.injectDm({ text: "hello" });
    await expect.poll(() => botTexts(f), { timeout: 5_000 }).toEqual(["before"]);

    // The network drops everything without a word (no reset): the poll under way waits for an answer that never comes.
    gate.stall();
    await new Promise((resolve) => setTimeout(resolve, 500));
    gate.open();
    await f.injectDm({ text: "still there?" });
    // grammy's own timeout would leave the bot deaf for 500 s per dead connection; here the dead poll is given up after
    // 1 s + 2 s, and the other pooled connections (dead too) are dropped with it instead of each stalling a call.
    await expect.poll(() => botTexts(f), { timeout: 10_000 }).toEqual(["before", "after"]);
  }, 30_000);
});
