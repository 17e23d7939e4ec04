import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { PostgresSessionStore } from "../src/index.js";
import { createScratchDatabase, type ScratchDatabase } from "../src/testing/index.js";

let database: ScratchDatabase;
const stores: PostgresSessionStore[] = [];
beforeAll(async () => {
  database = await createScratchDatabase();
});
afterAll(async () => {
  for (const store of stores) await store.close();
  await database.drop();
});

async function instance(instanceId: string): Promise<PostgresSessionStore> {
  const store = await PostgresSessionStore.open({
    url: database.url,
    schema: "bcast",
    cluster: { instanceId, sweepMs: 60_000 },
    onWarning: () => {},
  });
  stores.push(store);
  return store;
}

function broadcastOf(store: PostgresSessionStore) {
  const broadcast = store.ownership?.broadcast;
  if (broadcast === undefined) throw new Error("a cluster store has a broadcast");
  return broadcast;
}

describe("messages broadcast to the other instances of a cluster", () => {
  it("reach every other instance's subscribers of the topic, in order, long ones whole, never the sender's own", async () => {
    const [a, b, c] = [await instance("a"), await instance("b"), await instance("c")];
    const got = { a: [] as string[], b: [] as string[], c: [] as string[], otherTopic: [] as string[] };
    await broadcastOf(a).subscribe("webchat/main", (payload) => got.a.push(payload));
    await broadcastOf(b).subscribe("webchat/main", (payload) => got.b.push(payload));
    await broadcastOf(c).subscribe("webchat/main", (payload) => got.c.push(payload));
    await broadcastOf(c).subscribe("fleet", (payload) => got.otherTopic.push(payload));

    // Longer than one notification may carry (8000 bytes), with multi-byte characters and JSON escapes.
    const long = `${'é"\\\n😀'.repeat(4000)}end`;
    const sent = ["first", long, "third"];
    // Not awaited one by one: they still go out in order.
    await Promise.all(sent.map((payload) => broadcastOf(a).publish("webchat/main", payload)));
    await vi.waitFor(() => expect(got.c).toHaveLength(3), { timeout: 10_000, interval: 20 });
    await broadcastOf(b).publish("webchat/main", "from b");

    await vi.waitFor(
      () => {
        expect(got.b).toEqual(sent);
        expect(got.c).toEqual([...sent, "from b"]);
        // Each instance hears a notification on its own connection: a may get "from b" after c did.
        expect(got.a).toEqual(["from b"]);
      },
      { timeout: 10_000, interval: 20 },
    );
    expect(got.otherTopic).toEqual([]);
  });

  it("stops handing messages to a subscription once it is stopped, and publishes nothing after close", async () => {
    const [a, b] = [await instance("d"), await instance("e")];
    const got: string[] = [];
    const stop = await broadcastOf(b).subscribe("topic", (payload) => got.push(payload));
    await broadcastOf(a).publish("topic", "one");
    await vi.waitFor(() => expect(got).toEqual(["one"]), { timeout: 10_000, interval: 20 });
    stop();
    await broadcastOf(b).subscribe("other", (payload) => got.push(payload));
    await broadcastOf(a).publish("topic", "two");
    await broadcastOf(a).publish("other", "three");
    // "three" went out after "two": once it is in, "two" would be too.
    await vi.waitFor(() => expect(got).toEqual(["one", "three"]), { timeout: 10_000, interval: 20 });
    await a.close();
    await expect(broadcastOf(a).publish("topic", "after close")).resolves.toBeUndefined();
  });
});

describe("values the instances of a cluster agree on", () => {
  it("keeps the first proposal for a name, also when instances propose at once", async () => {
    const [a, b, c] = [await instance("f"), await instance("g"), await instance("h")];
    const agreed = await Promise.all(
      [a, b, c].map((store, i) => store.ownership?.agreeOn("webchat.key", `proposal ${i}`)),
    );
    expect(new Set(agreed).size).toBe(1);
    expect(["proposal 0", "proposal 1", "proposal 2"]).toContain(agreed[0]);
    expect(await c.ownership?.agreeOn("webchat.key", "a later proposal")).toBe(agreed[0]);
    expect(await a.ownership?.agreeOn("another name", "its own")).toBe("its own");
  });
});
