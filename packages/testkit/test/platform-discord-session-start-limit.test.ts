import { afterEach, describe, expect, it } from "vitest";
import { TestCleanup } from "../src/index.js";
import { startFakeDiscord } from "../src/platforms/index.js";
import { connectDiscordClient } from "./discord-test-client.js";

const cleanup = new TestCleanup();
afterEach(() => cleanup.closeAll());

/** A raw IDENTIFY on a socket of its own; resolves with the close code the fake answers with, or "ready". */
function rawIdentify(gatewayUrl: string, token: string): Promise<number | "ready"> {
  return new Promise((resolve) => {
    const socket = new WebSocket(`${gatewayUrl}?v=10&encoding=json`);
    socket.onmessage = (event: MessageEvent) => {
      const packet = JSON.parse(String(event.data)) as { op: number; t?: string };
      if (packet.op === 10) socket.send(JSON.stringify({ op: 2, d: { token, intents: 0, properties: {} } }));
      if (packet.t === "READY") {
        socket.close(1000);
        resolve("ready");
      }
    };
    socket.onclose = (event: CloseEvent) => resolve(event.code);
  });
}

describe("fake Discord daily IDENTIFY budget", () => {
  it("reports session_start_limit, spends one per IDENTIFY and none per RESUME, refuses an IDENTIFY beyond it, and is full again after reset_after", async () => {
    const fake = cleanup.track(
      await startFakeDiscord({ heartbeatIntervalMs: 1_000, sessionStartLimit: { total: 5, remaining: 2 } }),
    );
    const gatewayBot = async () =>
      (
        (await (
          await fetch(`${fake.restApi}/v10/gateway/bot`, { headers: { authorization: `Bot ${fake.token}` } })
        ).json()) as { session_start_limit: Record<string, number> }
      ).session_start_limit;
    expect(await gatewayBot()).toMatchObject({ total: 5, remaining: 2, max_concurrency: 1 });

    cleanup.track(await connectDiscordClient(fake));
    expect(fake.sessionStartLimit().remaining).toBe(1);
    // A dropped connection is RESUMEd: no IDENTIFY, nothing spent.
    expect(fake.dropConnection()).toBe(true);
    await expect.poll(() => fake.callsTo("gateway.resume").length).toBe(1);
    await fake.waitForSession();
    expect((await gatewayBot()).remaining).toBe(1);

    expect(await rawIdentify(fake.gatewayUrl, fake.token)).toBe("ready");
    expect(fake.sessionStartLimit().remaining).toBe(0);
    // One more: Discord would reset the token; the fake refuses it as one.
    expect(await rawIdentify(fake.gatewayUrl, fake.token)).toBe(4004);
    expect(fake.callsTo("gateway.identifyOverBudget")).toHaveLength(1);

    fake.setSessionStartLimit({ resetAfterMs: 50 });
    await expect.poll(() => fake.sessionStartLimit().remaining).toBe(5);
    expect(fake.sessionStartLimit().reset_after).toBeGreaterThan(60 * 60 * 1000);
  });
});
