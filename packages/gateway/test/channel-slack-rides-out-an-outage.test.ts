import { startFakeSlack, startNetworkGate, TestCleanup } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { createSlackChannel } from "../src/channels/index.js";
import type { BusDelivery } from "../src/events/index.js";
import { startChannelGateway } from "./channel-gateway-harness.js";

const cleanup = new TestCleanup();
afterEach(() => cleanup.closeAll());

describe("Slack ↔ bolt (Socket Mode) ↔ Gateway when Slack's Web API cannot be reached for a while", () => {
  it("fails the send soon, retries it through the outbox, and delivers it once when Slack is back", async () => {
    const f = cleanup.track(await startFakeSlack({ mode: "socket" }));
    // The Web API goes through the gate; events keep arriving over the socket Slack hands out.
    const gate = cleanup.track(await startNetworkGate(f.apiUrl));
    const channel = createSlackChannel({
      accountId: "sl",
      mode: "socket",
      botToken: f.botToken,
      appToken: f.appToken,
      slackApiUrl: `${gate.url}${new URL(f.apiUrl).pathname}`,
    });
    const g = cleanup.track(
      await startChannelGateway({
        channels: [channel],
        config: { channels: [{ channel: "slack", dmPolicy: "open" }] },
        // Slack's Web API becomes unreachable while the model writes the first answer.
        script: (_context, call) => {
          if (call === 0) gate.shut();
          return call === 0 ? "the answer" : "still here";
        },
        gateway: { outbox: { baseRetryMs: 50, pollMs: 20 } },
      }),
    );
    await f.waitForSocket();
    const events: BusDelivery[] = [];
    g.gateway.events.subscribe((delivery) => {
      events.push(delivery);
    });
    const botTexts = () =>
      f
        .conversation(f.dmChannel())
        .filter((m) => m.bot_id !== undefined)
        .map((m) => m.text);

    await f.injectDm({ text: "question" });
    // The send fails as a network error within the WebClient's short retries, and waits in the outbox.
    await expect
      .poll(() => events.filter((e) => e.type === "delivery_failed" && e.willRetry).length, { timeout: 8_000 })
      .toBeGreaterThanOrEqual(2);
    expect(botTexts()).toEqual([]);

    gate.open();
    await expect.poll(() => botTexts(), { timeout: 8_000 }).toEqual(["the answer"]);
    await f.injectDm({ text: "are you there?" });
    await expect.poll(() => botTexts(), { timeout: 8_000 }).toEqual(["the answer", "still here"]);
    expect(f.callsTo("chat.postMessage").filter((call) => call.status === 200)).toHaveLength(2);
    expect(await g.gateway.store.listOutbox({ status: "failed" })).toEqual([]);
  });
});
