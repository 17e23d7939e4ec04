import { setTimeout as sleep } from "node:timers/promises";
import { ChannelError, TestChannel } from "@chorus/channel";
import { fakeModel, scriptedStreamFn } from "@chorus/core/testing";
import { MemorySessionStore } from "@chorus/store";
import { afterEach, expect, it } from "vitest";
import { Gateway } from "../src/gateway/gateway.js";
import { BASE_CONFIG, modelCatalog } from "./fixtures/gateway-harness.js";

/** A channel that takes a while to shut down after it stops sending, as a Telegram long poll does. */
class SlowStopChannel extends TestChannel {
  override async stop(): Promise<void> {
    await super.stop();
    await sleep(700);
  }
}

let gateway: Gateway | undefined;

afterEach(async () => {
  await gateway?.stop(0);
  gateway = undefined;
});

it("leaves a reply whose retry falls due during shutdown pending for the next start, not given up", async () => {
  const store = new MemorySessionStore();
  const channel = new SlowStopChannel({ id: "test", accountId: "main" });
  gateway = new Gateway({
    config: BASE_CONFIG,
    store,
    channels: [channel],
    streamFn: scriptedStreamFn(() => "the answer"),
    models: modelCatalog([fakeModel()]),
    replyMode: "block",
    titles: false,
    outbox: { pollMs: 20 },
  });
  await gateway.start();
  // The reply's first send is rate-limited: it is retried 250 ms later, by which time the gateway is shutting down.
  channel.failNext("send", new ChannelError("rate-limited", "slow down", { retryAfterMs: 250 }));
  await channel.inject({ text: "hello", sender: { id: "ann", name: "Ann" } });
  await gateway.idle();
  expect((await store.listOutbox()).map((entry) => entry.status)).toEqual(["pending"]);

  await gateway.stop(0);
  gateway = undefined;
  const [entry] = await store.listOutbox();
  expect(entry).toMatchObject({ status: "pending", attempts: 1 });
  expect(channel.succeeded("send")).toEqual([]);
});
