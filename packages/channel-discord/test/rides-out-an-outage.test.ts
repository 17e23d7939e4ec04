import { countRetriedDeliveries, shutsGateWhileAnswering, startChannelGateway } from "@chorus/gateway-testing";
import { type FakeDiscord, startFakeDiscord, startNetworkGate, TestCleanup } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { createDiscordChannel } from "../src/index.js";

const cleanup = new TestCleanup();
afterEach(() => cleanup.closeAll());

function botTexts(f: FakeDiscord, channelId: string): string[] {
  return f
    .conversation(channelId)
    .filter((m) => m.author.id === f.bots[0]?.user.id)
    .map((m) => m.content);
}

describe("Discord ↔ discord.js ↔ Gateway when Discord cannot be reached for a while", () => {
  it("reconnects once Discord is back, delivers the reply that failed meanwhile once, and answers again", async () => {
    const f = cleanup.track(await startFakeDiscord({ heartbeatIntervalMs: 500 }));
    // REST and the gateway socket (Discord hands its URL out on the address asked) both go through the gate.
    const gate = cleanup.track(await startNetworkGate(f.restApi));
    const channel = createDiscordChannel({ accountId: "dc", token: f.token, restApi: `${gate.url}/api` });
    const g = cleanup.track(
      await startChannelGateway({
        channels: [channel],
        config: { channels: [{ channel: "discord", dmPolicy: "open" }] },
        script: shutsGateWhileAnswering(gate, "the answer", "still here"),
        gateway: { outbox: { baseRetryMs: 50, pollMs: 20 } },
      }),
    );
    const retried = countRetriedDeliveries(g.gateway);
    const dm = f.dmChannel().id;

    await f.injectDm({ content: "question" });
    await expect.poll(retried, { timeout: 20_000 }).toBeGreaterThanOrEqual(1);
    // Down long enough for several failed reconnects.
    await expect.poll(() => gate.refused, { timeout: 20_000 }).toBeGreaterThanOrEqual(6);
    expect(botTexts(f, dm)).toEqual([]);

    gate.open();
    await expect.poll(() => botTexts(f, dm), { timeout: 20_000 }).toEqual(["the answer"]);
    await f.waitForSession(undefined, 20_000);
    await f.injectDm({ content: "are you there?" });
    await expect.poll(() => botTexts(f, dm), { timeout: 20_000 }).toEqual(["the answer", "still here"]);
  }, 60_000);
});
