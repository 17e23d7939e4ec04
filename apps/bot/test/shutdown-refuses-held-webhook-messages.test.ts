import { isMessageNotStored, TestChannel } from "@chorus/gateway";
import { describe, expect, it } from "vitest";
import { ManagedChannel } from "../src/runtime/managed-channel.js";

// A shutdown detaches the Gateway from its channels before it closes them; a message arriving in between waits in the
// channel. Acked at close, a webhook's message would be lost: no Gateway stores it any more, and the platform, told
// it arrived, never sends it again (seen in a rolling restart: a Slack message acked by the instance that stopped).
describe("a channel closed with messages waiting for a Gateway", () => {
  it("refuses the ones whose platform delivers them again, and lets the others go", async () => {
    const inner = new TestChannel({ id: "test", accountId: "main" });
    const channel = new ManagedChannel(inner);
    const stored: string[] = [];
    await channel.start(async (message) => {
      stored.push(message.text);
    });
    await inner.inject({ text: "while attached" });
    await channel.stop(); // the Gateway stops: detached, the connection stays up

    const webhook = inner.inject({ text: "a webhook update", platformRedelivers: true });
    const polled = inner.inject({ text: "a polled update" });
    let webhookSettled = false;
    void webhook.then(
      () => {
        webhookSettled = true;
      },
      () => {
        webhookSettled = true;
      },
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Held, not acked, while a Gateway may still attach (a config reload).
    expect(webhookSettled).toBe(false);

    await channel.close();
    const refusal = await webhook.then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isMessageNotStored(refusal)).toBe(true);
    await expect(polled).resolves.toMatchObject({ text: "a polled update" });
    expect(stored).toEqual(["while attached"]);
  });

  it("once the bot is shutting down, refuses a webhook's message at once instead of holding it until close", async () => {
    const inner = new TestChannel({ id: "test", accountId: "main" });
    const channel = new ManagedChannel(inner);
    const stored: string[] = [];
    await channel.start(async (message) => {
      stored.push(message.text);
    });
    channel.closing();
    // Still attached: the stopping Gateway stores what arrives (and answers it, or leaves it to the next owner).
    await inner.inject({ text: "while the Gateway drains", platformRedelivers: true });
    await channel.stop();
    const refusal = await inner.inject({ text: "after it let go", platformRedelivers: true }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isMessageNotStored(refusal)).toBe(true);
    expect(stored).toEqual(["while the Gateway drains"]);
    await channel.close();
  });
});
