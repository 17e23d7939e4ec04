import type { InboundMessage, IngressLeases, IngressState } from "@chorus/gateway";
import { startFakeDiscord, TestCleanup } from "@chorus/testkit";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createDiscordChannel } from "../src/index.js";

const cleanup = new TestCleanup();
afterEach(() => cleanup.closeAll());

/** One instance's ingress in a cluster: it holds every unit, with `state` saved by the previous holder, and keeps what it saves. */
function ingressHolding(state: IngressState | undefined): IngressLeases & { saved: IngressState | undefined } {
  const ingress = {
    saved: undefined as IngressState | undefined,
    async run(unit: string, worker: Parameters<IngressLeases["run"]>[1]) {
      await worker.start({
        unit,
        epoch: 1,
        state,
        save: async (next) => {
          ingress.saved = next;
        },
      });
      return { withdraw: () => worker.stop() };
    },
    pace: async () => 0,
  };
  return ingress;
}

describe("a Discord shard taken over from a holder that died", () => {
  it("hands on the messages of the previous holder's session before a newer live message of the same chat", async () => {
    const fake = cleanup.track(await startFakeDiscord({ heartbeatIntervalMs: 200 }));
    const options = {
      accountId: "dc",
      token: fake.token,
      restApi: fake.restApi,
      registerCommands: false,
      identifyIntervalMs: 10,
    };
    const previousIngress = ingressHolding(undefined);
    const previous = createDiscordChannel(options);
    cleanup.track({ close: () => previous.stop() });
    await previous.start(() => {}, { ingress: previousIngress });
    await vi.waitFor(() => expect(previousIngress.saved).toBeDefined(), { timeout: 5_000 });
    // Its socket closed resumably (as a holder cut off from the database does): Discord keeps what comes meanwhile.
    await previous.stop();
    await fake.injectChannelMessage({ content: "missed 1" });
    await fake.injectChannelMessage({ content: "missed 2" });

    // The new holder's RESUME of that session replays both, and RESUMED waits until a live message of the same chat
    // has reached the new holder's own session and been read there.
    const resume = fake.holdResumed();
    const texts: string[] = [];
    const taker = createDiscordChannel(options);
    const started = taker.start(
      (inbound: InboundMessage) => {
        texts.push(inbound.text);
      },
      { ingress: ingressHolding(previousIngress.saved) },
    );
    cleanup.track({ close: () => taker.stop() });
    await resume.replayed;
    await fake.injectChannelMessage({ content: "live" });
    await fake.waitForHeartbeat();
    resume.release();
    await started;

    await vi.waitFor(() => expect(texts).toEqual(["missed 1", "missed 2", "live"]), { timeout: 5_000 });
    expect(fake.callsTo("gateway.resume")).toHaveLength(1);
  });
});
