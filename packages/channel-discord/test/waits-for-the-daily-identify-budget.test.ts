import type { InboundMessage } from "@chorus/gateway";
import { startFakeDiscord, TestCleanup } from "@chorus/testkit";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createDiscordChannel } from "../src/index.js";

const cleanup = new TestCleanup();
afterEach(() => cleanup.closeAll());

const identifiedShards = (fake: { callsTo(method: string): readonly { body: unknown }[] }): number[] =>
  fake.callsTo("gateway.identify").map((call) => (call.body as { shard: number[] }).shard[0] ?? -1);

describe("the daily IDENTIFY budget (session_start_limit)", () => {
  it("does not IDENTIFY with none left, says why without the token, and connects once Discord's reset_after has passed", async () => {
    // The budget's reset is counted from the fake's start: discord.js is loaded first (a second or more on a busy
    // machine) and the reset left long enough for the channel's start to ask while none is left.
    await import("discord.js");
    const fake = cleanup.track(
      await startFakeDiscord({ heartbeatIntervalMs: 1_000, sessionStartLimit: { remaining: 0, resetAfterMs: 4_000 } }),
    );
    const warnings: string[] = [];
    const texts: string[] = [];
    const channel = createDiscordChannel({
      accountId: "dc",
      token: fake.token,
      restApi: fake.restApi,
      registerCommands: false,
      identifyIntervalMs: 10,
      onError: (error) => warnings.push(String(error)),
    });
    cleanup.track({ close: () => channel.stop() });
    // Start does not wait for the budget: the gateway and the other channels go on.
    await channel.start((inbound: InboundMessage) => {
      texts.push(inbound.text);
    });
    expect(channel.connectedShards).toEqual([]);
    expect(fake.callsTo("gateway.identify")).toEqual([]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/shard 0: not identifying, the daily IDENTIFY budget is spent \(0 of 1000 left/);
    expect(warnings[0]).not.toContain(fake.token);

    // Discord's reset_after passes: the budget is full again and the shard connects, with one IDENTIFY.
    await fake.waitForSession(undefined, 10_000);
    expect(identifiedShards(fake)).toEqual([0]);
    expect(fake.callsTo("gateway.identifyOverBudget")).toEqual([]);
    await fake.injectChannelMessage({ content: "after the reset" });
    await vi.waitFor(() => expect(texts).toEqual(["after the reset"]), { timeout: 5_000 });
  });

  it("keeps max_concurrency IDENTIFYs back: the shard over the budget waits, the other shard answers meanwhile", async () => {
    // Two left with max_concurrency 1: shard 0 identifies (one left, the reserve), shard 1 must wait for the reset.
    const fake = cleanup.track(
      await startFakeDiscord({
        guilds: 2,
        shards: 2,
        maxConcurrency: 1,
        heartbeatIntervalMs: 1_000,
        sessionStartLimit: { remaining: 2, resetAfterMs: 60_000 },
      }),
    );
    const warnings: string[] = [];
    const texts: string[] = [];
    const channel = createDiscordChannel({
      accountId: "dc",
      token: fake.token,
      restApi: fake.restApi,
      registerCommands: false,
      shards: "auto",
      identifyIntervalMs: 10,
      onError: (error) => warnings.push(String(error)),
    });
    cleanup.track({ close: () => channel.stop() });
    await channel.start((inbound: InboundMessage) => {
      texts.push(inbound.text);
    });
    expect(channel.connectedShards).toEqual([0]);
    expect(identifiedShards(fake)).toEqual([0]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/shard 1: not identifying.*\(1 of 1000 left, 1 kept back.*trying again in 1 min/);
    await fake.injectChannelMessage({ content: "on shard 0", channelId: fake.guilds[0]?.general.id ?? "" });
    await vi.waitFor(() => expect(texts).toEqual(["on shard 0"]), { timeout: 5_000 });
    expect(fake.sessionStartLimit().remaining).toBe(1);
  });
});
