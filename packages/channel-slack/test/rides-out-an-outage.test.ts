import type { Script } from "@chorus/core/testing";
import { countRetriedDeliveries, shutsGateWhileAnswering, startChannelGateway } from "@chorus/gateway-testing";
import { startFakeSlack, startNetworkGate, TestCleanup } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { createSlackChannel, type SlackChannelOptions } from "../src/index.js";

const cleanup = new TestCleanup();
afterEach(() => cleanup.closeAll());

/**
 * A gateway on a Socket Mode app whose every connection goes through a gate: the Web API and, as Slack hands the link
 * out on the address asked, the socket. Relinks are quick (300 ms), and so are the Web API client's own retries.
 */
async function startBehindGate(
  script: (gate: Awaited<ReturnType<typeof startNetworkGate>>) => Script,
  options: Partial<SlackChannelOptions> & { pingIntervalMs?: number } = {},
) {
  const { pingIntervalMs = 1_000, ...channelOptions } = options;
  const f = cleanup.track(await startFakeSlack({ mode: "socket", pingIntervalMs }));
  const gate = cleanup.track(await startNetworkGate(f.apiUrl));
  const channel = createSlackChannel({
    accountId: "sl",
    mode: "socket",
    botToken: f.botToken,
    appToken: f.appToken,
    slackApiUrl: `${gate.url}${new URL(f.apiUrl).pathname}`,
    clientPingTimeoutMs: 300,
    reconnectMaxDelayMs: 300,
    webApiRetryDelayMs: 50,
    ...channelOptions,
  });
  const g = cleanup.track(
    await startChannelGateway({
      channels: [channel],
      config: { channels: [{ channel: "slack", dmPolicy: "open" }] },
      script: script(gate),
      gateway: { outbox: { baseRetryMs: 50, pollMs: 20 } },
    }),
  );
  await f.waitForSocket();
  const botTexts = () =>
    f
      .conversation(f.dmChannel())
      .filter((m) => m.bot_id !== undefined)
      .map((m) => m.text);
  return { f, gate, g, botTexts };
}

describe("Slack ↔ bolt (Socket Mode) ↔ Gateway when Slack cannot be reached for a while", () => {
  it("fails the send soon, retries it through the outbox, and delivers it once when Slack is back", async () => {
    const { f, gate, g, botTexts } = await startBehindGate((gate) =>
      shutsGateWhileAnswering(gate, "the answer", "still here"),
    );
    const retried = countRetriedDeliveries(g.gateway);

    // Not awaited: the link drops before bolt acks the event, so Slack sends it again on the next link (deduped).
    void f.injectDm({ text: "question" }).catch(() => {});
    // The send fails as a network error within the WebClient's short retries, and waits in the outbox.
    await expect.poll(retried, { timeout: 8_000 }).toBeGreaterThanOrEqual(2);
    expect(botTexts()).toEqual([]);

    gate.open();
    await expect.poll(() => botTexts(), { timeout: 8_000 }).toEqual(["the answer"]);
    await f.injectDm({ text: "are you there?" });
    await expect.poll(() => botTexts(), { timeout: 8_000 }).toEqual(["the answer", "still here"]);
    expect(f.callsTo("chat.postMessage").filter((call) => call.status === 200)).toHaveLength(2);
    expect(await g.gateway.store.listOutbox({ status: "failed" })).toEqual([]);
  });

  it("relinks Socket Mode after Slack could not be reached at all, and answers again", async () => {
    const { f, gate, botTexts } = await startBehindGate(() => ["before", "after"]);
    await f.injectDm({ text: "hello" });
    await expect.poll(() => botTexts(), { timeout: 5_000 }).toEqual(["before"]);

    gate.shut();
    // The link is gone and every attempt to get a new one is cut, again and again.
    await expect.poll(() => gate.refused, { timeout: 8_000 }).toBeGreaterThanOrEqual(4);
    const opened = f.callsTo("apps.connections.open").length;
    gate.open();
    await expect.poll(() => f.callsTo("apps.connections.open").length, { timeout: 5_000 }).toBeGreaterThan(opened);
    await f.waitForSocket();
    await f.injectDm({ text: "back?" });
    await expect.poll(() => botTexts(), { timeout: 5_000 }).toEqual(["before", "after"]);
  });

  it("relinks after the network died silently (no reset), and answers what was sent meanwhile", async () => {
    const { f, gate, botTexts } = await startBehindGate(() => ["before", "after"], {
      pingIntervalMs: 500,
      requestTimeoutMs: 2_000,
    });
    await f.injectDm({ text: "hello" });
    await expect.poll(() => botTexts(), { timeout: 5_000 }).toEqual(["before"]);

    // Every connection of the moment goes silent for good (pooled Web API ones included); new ones work again later.
    gate.stall();
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    gate.open();
    const opened = f.callsTo("apps.connections.open").length;
    void f.injectDm({ text: "back?" }).catch(() => {});
    // The relink's call meets a dead pooled connection first: without a request timeout it waited undici's 300 s.
    await expect.poll(() => botTexts(), { timeout: 10_000 }).toEqual(["before", "after"]);
    expect(f.callsTo("apps.connections.open").length).toBeGreaterThan(opened);
  }, 30_000);
  it("gives up a send on a pooled Web API connection that died silently, and delivers it on a new one", async () => {
    const { f, gate, botTexts } = await startBehindGate(() => ["before", "after"], {
      pingIntervalMs: 500,
      requestTimeoutMs: 1_000,
    });
    await f.injectDm({ text: "hello" });
    await expect.poll(() => botTexts(), { timeout: 5_000 }).toEqual(["before"]);

    // The keep-alive connection the first reply went over goes silent for good; new connections work.
    gate.stall();
    gate.open();
    // The socket link went silent too: the event comes again on the next link (not awaited: the first try is lost).
    void f.injectDm({ text: "still there?" }).catch(() => {});
    // The send on the dead connection is given up after the request timeout and tried again on a new connection.
    await expect.poll(() => botTexts(), { timeout: 10_000 }).toEqual(["before", "after"]);
    expect(f.callsTo("chat.postMessage").filter((call) => call.status === 200)).toHaveLength(2);
  }, 30_000);
});
