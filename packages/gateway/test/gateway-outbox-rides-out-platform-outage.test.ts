import { ChannelError } from "@chorus/channel";
import { afterEach, describe, expect, it } from "vitest";
import { chatTexts, type Harness, startHarness } from "./fixtures/gateway-harness.js";

const networkDown = () => new ChannelError("network", "telegram send failed: connect ECONNREFUSED");

function deliveryFailures(h: Harness) {
  return h.events.flatMap((event) => (event.type === "delivery_failed" ? [event] : []));
}

describe("the outbox during a platform outage", () => {
  let h: Harness;
  afterEach(async () => h.close());

  it("keeps retrying a reply past maxAttempts while the platform is unreachable, then delivers it once", async () => {
    h = await startHarness({
      script: ["the answer"],
      gateway: { outbox: { maxAttempts: 3, baseRetryMs: 5, pollMs: 10 } },
    });
    // Eight sends in a row fail at the network level — far more than maxAttempts.
    h.channel.failNext("send", networkDown, 8);
    await h.send({ text: "question" });

    await expect.poll(() => chatTexts(h.channel, "dm-user-1"), { timeout: 5_000 }).toEqual(["the answer"]);
    const failures = deliveryFailures(h);
    expect(failures).toHaveLength(8);
    expect(failures.every((failure) => failure.willRetry)).toBe(true);
    expect((await h.store.listOutbox({ status: "sent" })).map((entry) => entry.kind)).toEqual(["reply"]);
    expect(await h.store.listOutbox({ status: "failed" })).toEqual([]);
  });

  it("gives a reply up once the outage outlasts transientRetryWindowMs", async () => {
    h = await startHarness({
      script: ["the answer"],
      gateway: { outbox: { maxAttempts: 100, baseRetryMs: 5, pollMs: 10, transientRetryWindowMs: 150 } },
    });
    h.channel.failNext("send", networkDown, 100_000);
    await h.send({ text: "question" });

    await expect.poll(() => h.store.listOutbox({ status: "failed" }), { timeout: 5_000 }).toHaveLength(1);
    const failures = deliveryFailures(h);
    expect(failures.at(-1)?.willRetry).toBe(false);
    expect(failures.slice(0, -1).every((failure) => failure.willRetry)).toBe(true);
    expect(chatTexts(h.channel, "dm-user-1")).toEqual([]);
  });
});

describe("the outbox keeps a chat's replies in order", () => {
  let h: Harness;
  afterEach(async () => h.close());

  it("holds a later reply back while an earlier one of the same chat waits for its retry", async () => {
    h = await startHarness({
      script: ["first answer", "second answer"],
      gateway: { outbox: { baseRetryMs: 300, pollMs: 20 } },
    });
    h.channel.failNext("send", networkDown, 1);
    await h.send({ text: "first question" });
    // The first answer now waits for its retry; the second is ready at once.
    await h.send({ text: "second question" });

    await expect.poll(() => chatTexts(h.channel, "dm-user-1"), { timeout: 5_000 }).toHaveLength(2);
    expect(chatTexts(h.channel, "dm-user-1")).toEqual(["first answer", "second answer"]);
  });
});
