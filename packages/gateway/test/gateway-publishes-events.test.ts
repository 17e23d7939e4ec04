import { ChannelError } from "@chorus/channel";
import { afterEach, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "./fixtures/gateway-harness.js";

describe("gateway events", () => {
  let h: Harness;
  afterEach(async () => h.close());

  it("publish message received, run started and ended, and tool activity, in order", async () => {
    h = await startHarness({ script: [{ toolCalls: [{ name: "missing_tool" }] }, "done"] });
    await h.send({ text: "go" });
    await new Promise((resolve) => setImmediate(resolve));
    const types = h.events.map((event) => event.type);
    expect(types).toEqual(["message_received", "run_started", "tool_activity", "tool_activity", "run_ended"]);
    const ended = h.events.at(-1);
    expect(ended?.type === "run_ended" && ended.outcome).toBe("completed");
  });

  it("publish delivery failures with whether they will be retried", async () => {
    h = await startHarness({ script: ["hi"], gateway: { outbox: { maxAttempts: 1 } } });
    // A failure not known to pass: given up after maxAttempts (a passing one would be retried for hours).
    h.channel.failNext("send", new ChannelError("unknown", "bad request"), 1);
    await h.send({ text: "go" });
    await new Promise((resolve) => setImmediate(resolve));
    const failure = h.events.find((event) => event.type === "delivery_failed");
    expect(failure).toMatchObject({ type: "delivery_failed", chatId: "dm-user-1", attempt: 1, willRetry: false });
    expect((await h.store.listOutbox({ status: "failed" })).map((entry) => entry.kind)).toEqual(["reply"]);
  });
});
