import { fakeModel, scriptedStreamFn } from "@chorus/core/testing";
import { autonomyExtension } from "@chorus/extension-autonomy";
import { Gateway, TestChannel } from "@chorus/gateway";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { PostgresSessionStore } from "../src/index.js";
import { createScratchDatabase, type ScratchDatabase } from "../src/testing/index.js";

// A cluster instance writes the spend of calls no budget limits on its heartbeat (not per message): it still lands in
// the ledger, on the next beat or at a graceful stop.

let database: ScratchDatabase;
beforeAll(async () => {
  database = await createScratchDatabase();
});
afterAll(async () => {
  await database.drop();
});

const model = fakeModel();
const config = {
  agents: [{ id: "main", model: model.id }],
  channels: [{ channel: "test", dmPolicy: "open" as const }],
};

async function instance(schema: string, leaseMs: number) {
  const store = await PostgresSessionStore.open({
    url: database.url,
    schema,
    cluster: { instanceId: "a", leaseMs, sweepMs: 60_000 },
    onWarning: () => {},
  });
  const channel = new TestChannel({ id: "test", accountId: "main" });
  const gateway = new Gateway({
    config,
    store,
    channels: [channel],
    streamFn: scriptedStreamFn(() => ({ text: "ok", usage: { input: 1, output: 40, totalTokens: 41 } })),
    models: { find: (id) => (id === model.id ? model : undefined), list: () => [model] },
    replyMode: "block",
    extensions: [autonomyExtension()],
  });
  await gateway.start();
  return { store, gateway, channel };
}

describe("spend of a cluster instance's unlimited calls", () => {
  it("is in the ledger after the next heartbeat", async () => {
    const a = await instance("spend_on_beat", 600);
    try {
      await a.channel.inject({ text: "hi", sender: { id: "ann" }, eventId: "evt-1" });
      await a.channel.inject({ text: "again", sender: { id: "bob" }, eventId: "evt-2" });
      await a.gateway.idle();
      await vi.waitFor(
        async () => {
          const [row] = await a.store.listSpend({ kind: "agent", subject: "main" });
          expect(row?.tokens).toBe(82);
        },
        { timeout: 5000 },
      );
      expect(await a.store.listSpend({ kind: "user", subject: "bob" })).toMatchObject([{ tokens: 41 }]);
    } finally {
      await a.gateway.stop(0);
      await a.store.close();
    }
  });

  it("is written at a graceful stop when no heartbeat came since", async () => {
    const a = await instance("spend_at_stop", 120_000);
    await a.channel.inject({ text: "hi", sender: { id: "ann" }, eventId: "evt-1" });
    await a.gateway.idle();
    await a.gateway.stop(0);
    try {
      expect(await a.store.listSpend({ kind: "agent", subject: "main" })).toMatchObject([{ tokens: 41 }]);
    } finally {
      await a.store.close();
    }
  });
});
