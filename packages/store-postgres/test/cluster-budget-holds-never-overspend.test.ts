import type { SpendHold, SpendLimit } from "@chorus/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PostgresSessionStore } from "../src/index.js";
import { createScratchDatabase, type ScratchDatabase } from "../src/testing/index.js";

// Two gateways of a cluster reserve against one budget through their own stores (their own pools and connections):
// the database row decides, so together they never hold or spend more than the limit.

let database: ScratchDatabase;
let a: PostgresSessionStore;
let b: PostgresSessionStore;
beforeAll(async () => {
  database = await createScratchDatabase();
  const open = (instanceId: string) =>
    PostgresSessionStore.open({
      url: database.url,
      schema: "budgets",
      poolSize: 6,
      cluster: { instanceId, leaseMs: 60_000, sweepMs: 60_000 },
      onWarning: () => {},
    });
  a = await open("a");
  b = await open("b");
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await database.drop();
});

const DAY = "2026-11-26";
const agentDay: SpendLimit = { kind: "agent", subject: "main", period: DAY, maxTokens: 10_000 };
const goalTotal: SpendLimit = { kind: "goal", subject: "g1", period: "total", maxCost: 0.35 };

describe("budget holds shared by two gateways on one PostgreSQL database", () => {
  it("grants concurrent holds from both instances only while they fit, and settles them to the limit at most", async () => {
    const holds: SpendHold[] = Array.from({ length: 40 }, (_, i) => ({
      id: `call-${i}`,
      limits: i % 2 === 0 ? [agentDay] : [goalTotal, agentDay],
      tokens: 700,
      cost: 0.05,
      heldUntil: Date.now() + 60_000,
    }));
    const results = await Promise.all(holds.map((hold, i) => (i % 2 === 0 ? a : b).holdSpend(hold)));
    const granted = holds.filter((_, i) => results[i]?.ok);
    // 10 000 tokens hold 14 calls of 700; the goal's $0.35 holds 7 of the calls that count against it.
    expect(granted).toHaveLength(14);
    expect(granted.filter((hold) => hold.limits.length === 2).length).toBeLessThanOrEqual(7);
    const [held] = await a.listSpend({ kind: "agent" });
    expect(held).toMatchObject({ tokens: 0, reservedTokens: 14 * 700 });
    // Which 14 win is a race between the two pools: the goal's row exists only once one of its holds was granted.
    const goalGranted = granted.filter((hold) => hold.limits.length === 2).length;
    const [goalHeld] = await b.listSpend({ kind: "goal" });
    expect(goalHeld?.reservedCost ?? 0).toBeCloseTo(goalGranted * 0.05, 9);
    expect(goalHeld?.reservedCost ?? 0).toBeLessThanOrEqual(0.35 + 1e-9);

    // Each call used less than it held: settling frees the rest, and the freed budget is granted again.
    await Promise.all(
      granted.map((hold, i) =>
        (i % 2 === 0 ? a : b).settleSpend(
          hold.id,
          hold.limits.map((limit) => ({ ...limit, tokens: 500, cost: 0.04 })),
        ),
      ),
    );
    const [spent] = await a.listSpend({ kind: "agent" });
    expect(spent).toMatchObject({ tokens: 14 * 500, reservedTokens: 0 });
    const more = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        (i % 2 === 0 ? a : b).holdSpend({
          id: `more-${i}`,
          limits: [agentDay],
          tokens: 700,
          cost: 0,
          heldUntil: Date.now() + 60_000,
        }),
      ),
    );
    // 10 000 − 7 000 spent leaves room for 4 more holds of 700.
    expect(more.filter((result) => result.ok)).toHaveLength(4);
    const [after] = await b.listSpend({ kind: "agent" });
    expect(after!.tokens + after!.reservedTokens).toBeLessThanOrEqual(10_000);
  });
});
