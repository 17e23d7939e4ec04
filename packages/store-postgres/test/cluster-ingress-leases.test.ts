import type { IngressLease, IngressRegistration } from "@chorus/gateway";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { PostgresSessionStore } from "../src/index.js";
import { createScratchDatabase, type ScratchDatabase } from "../src/testing/index.js";

let database: ScratchDatabase;
beforeAll(async () => {
  database = await createScratchDatabase();
});
afterAll(async () => {
  await database.drop();
});

/** A cluster instance that runs ingress units, recording which it runs now and what each lease carried. */
interface Runner {
  readonly store: PostgresSessionStore;
  readonly running: Set<string>;
  readonly leases: IngressLease[];
  run(unit: string): Promise<IngressRegistration>;
  close(): Promise<void>;
}

async function runner(schema: string, instanceId: string): Promise<Runner> {
  const store = await PostgresSessionStore.open({
    url: database.url,
    schema,
    cluster: { instanceId, leaseMs: 1500, sweepMs: 60_000 },
    onWarning: () => {},
  });
  const running = new Set<string>();
  const leases: IngressLease[] = [];
  const ingress = store.ownership?.ingress;
  if (ingress === undefined) throw new Error("a cluster store has ingress leases");
  return {
    store,
    running,
    leases,
    run: (unit) =>
      ingress.run(unit, {
        start: async (lease) => {
          leases.push(lease);
          running.add(unit);
        },
        stop: async () => {
          running.delete(unit);
        },
      }),
    async close() {
      await store.ownership?.stop();
      await store.close();
    },
  };
}

const start = (one: Runner) => one.store.ownership?.start(() => {});

describe("ingress leases on PostgreSQL", () => {
  it("runs a unit on one instance at a time, hands it over at once on withdraw with the state saved", async () => {
    const a = await runner("one_at_a_time", "a");
    const b = await runner("one_at_a_time", "b");
    try {
      const onA = await a.run("telegram:poll");
      await b.run("telegram:poll");
      await start(a);
      await vi.waitFor(() => expect([...a.running]).toEqual(["telegram:poll"]), { timeout: 5000 });
      await start(b);
      // b beats alongside: one unit, a fair share of one each; a keeps it.
      await vi.waitFor(() => expect(b.store.ownership?.shards.length ?? 0).toBeGreaterThan(0), { timeout: 5000 });
      expect([a.running.size, b.running.size]).toEqual([1, 0]);
      await a.leases[0]?.save({ sequence: 42 });

      await onA.withdraw();
      expect(a.running.size).toBe(0);
      await vi.waitFor(() => expect([...b.running]).toEqual(["telegram:poll"]), { timeout: 5000 });
      expect(b.leases[0]?.state).toEqual({ sequence: 42 });
      expect(b.leases[0]?.epoch).toBeGreaterThan(a.leases[0]?.epoch ?? 0);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("splits units over the live instances, and the survivor takes them all when the other stops", async () => {
    const a = await runner("split", "a");
    const b = await runner("split", "b");
    try {
      const units = ["discord:x:0", "discord:x:1", "discord:x:2", "discord:x:3"];
      for (const unit of units) {
        await a.run(unit);
        await b.run(unit);
      }
      await start(a);
      await start(b);
      await vi.waitFor(() => expect([a.running.size, b.running.size]).toEqual([2, 2]), { timeout: 10_000 });
      expect([...a.running, ...b.running].sort()).toEqual(units);

      await a.close();
      await vi.waitFor(() => expect([...b.running].sort()).toEqual(units), { timeout: 5000 });
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("paces a shared rate limit across instances: two slots asked at once are an interval apart", async () => {
    const a = await runner("pace", "a");
    const b = await runner("pace", "b");
    try {
      const waits = await Promise.all([
        a.store.ownership?.ingress.pace("identify:0", 5000),
        b.store.ownership?.ingress.pace("identify:0", 5000),
      ]);
      const [first, second] = [...(waits as number[])].sort((x, y) => x - y);
      expect(first).toBe(0);
      expect(second).toBeGreaterThan(4000);
      expect(second).toBeLessThanOrEqual(5000);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
