import { fakeModel, scriptedStreamFn } from "@chorus/core/testing";
import { autonomyExtension } from "@chorus/extension-autonomy";
import { Gateway, routeInbound, TestChannel } from "@chorus/gateway";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { PostgresSessionStore } from "../src/index.js";
import { createScratchDatabase, type ScratchDatabase } from "../src/testing/index.js";

// Two gateway instances of a cluster answer chats of one agent whose daily budget is shared: each instance alone would
// allow three calls, so without the reservation in the database the cluster would make six.

let database: ScratchDatabase;
beforeAll(async () => {
  database = await createScratchDatabase();
});
afterAll(async () => {
  await database.drop();
});

/** Each answer may be 100 tokens: a call reserves ~100 plus its estimated input; each reports 101 used. */
const model = fakeModel({ maxOutput: 100 });
const config = {
  agents: [{ id: "main", model: model.id, budgets: { dailyTokens: 350 } }],
  channels: [{ channel: "test", dmPolicy: "open" as const, admins: ["admin"] }],
};

interface Instance {
  readonly store: PostgresSessionStore;
  readonly gateway: Gateway;
  readonly channel: TestChannel;
  readonly calls: () => number;
}

async function instance(name: string): Promise<Instance> {
  const store = await PostgresSessionStore.open({
    url: database.url,
    schema: "shared_budget",
    cluster: { instanceId: name, leaseMs: 1500, sweepMs: 1000 },
    onWarning: () => {},
  });
  const channel = new TestChannel({ id: "test", accountId: "main" });
  const streamFn = scriptedStreamFn(() => ({
    text: "working on it",
    usage: { input: 1, output: 100, totalTokens: 101 },
    endDelayMs: 50,
  }));
  const gateway = new Gateway({
    config,
    store,
    channels: [channel],
    streamFn,
    models: { find: (id) => (id === model.id ? model : undefined), list: () => [model] },
    replyMode: "block",
    outbox: { pollMs: 200 },
    extensions: [autonomyExtension()],
  });
  await gateway.start();
  return { store, gateway, channel, calls: () => streamFn.calls.length };
}

const probe = new TestChannel({ id: "test", accountId: "main" });

/** A sender whose DM session `owner` holds now. */
function senderOwnedBy(owner: Instance, prefix: string, skip: number): string {
  let found = 0;
  for (let i = 0; i < 500; i++) {
    const sender = `${prefix}-${i}`;
    const key = routeInbound(
      owner.gateway.config,
      probe.buildInbound({ text: "x", sender: { id: sender } }),
    ).sessionKey;
    if (owner.store.ownership?.fenceFor(key) !== undefined && found++ === skip) return sender;
  }
  throw new Error("the instance owns no session");
}

describe("a budget shared by the gateways of a cluster", () => {
  it("lets concurrent turns on two instances together spend no more than the agent's daily budget", async () => {
    const a = await instance("a");
    const b = await instance("b");
    try {
      const held = (one: Instance) => one.store.ownership?.shards.length ?? 0;
      await vi.waitFor(() => expect([held(a) > 0, held(b) > 0]).toEqual([true, true]), { timeout: 10_000 });
      const senders = [0, 1, 2].flatMap((i) => [
        { at: a, id: senderOwnedBy(a, "a", i) },
        { at: b, id: senderOwnedBy(b, "b", i) },
      ]);
      let event = 0;
      const send = ({ at, id }: (typeof senders)[number]) =>
        at.channel.inject({ text: `hello from ${id}`, sender: { id }, eventId: `evt-${++event}` });
      // One turn on each instance first, so that both spend from the budget (which instance wins a race for the last
      // tokens is timing); then the other four at once, on both instances, race for what is left.
      await Promise.all(senders.slice(0, 2).map(send));
      await Promise.all([a.gateway.idle(), b.gateway.idle()]);
      await Promise.all(senders.slice(2).map(send));
      await Promise.all([a.gateway.idle(), b.gateway.idle()]);
      // 3 × 101 = 303 tokens; a fourth call's worst case would pass 350 wherever it runs.
      expect(a.calls() + b.calls()).toBe(3);
      expect(a.calls()).toBeGreaterThan(0);
      expect(b.calls()).toBeGreaterThan(0);
      const [row] = await a.store.listSpend({ kind: "agent", subject: "main" });
      expect(row).toMatchObject({ tokens: 303, reservedTokens: 0 });
      const refusals = [a, b]
        .flatMap((one) => senders.flatMap(({ id }) => one.channel.transcript(`dm-${id}`)))
        .filter((text) => text.includes("Budget exhausted: agent main's daily budget of 350 tokens"));
      expect(refusals).toHaveLength(3);
    } finally {
      await a.gateway.stop(0);
      await b.gateway.stop(0);
      await a.store.close();
      await b.store.close();
    }
  });
});
