import { type SessionStore, SessionStoreError, type SpendHold, type SpendLimit } from "@chorus/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ClockedStore } from "./clocked-store.js";

const DAY = "2026-11-26";
const agentDay: SpendLimit = { kind: "agent", subject: "main", period: DAY, maxTokens: 1_000, maxCost: 1 };
const goalTotal: SpendLimit = { kind: "goal", subject: "g1", period: "total", maxTokens: 500 };

function hold(
  id: string,
  tokens: number,
  limits: readonly SpendLimit[],
  heldUntil = Number.MAX_SAFE_INTEGER,
): SpendHold {
  return { id, limits, tokens, cost: tokens / 1_000, heldUntil };
}

/** Part of the conformance suite: the spend ledger (`recordSpend`, `listSpend`, `holdSpend`, `settleSpend`). */
export function describeSpendLedger(create: () => ClockedStore): void {
  describe("spend ledger", () => {
    let h: ClockedStore;
    let store: SessionStore;
    beforeEach(() => {
      h = create();
      store = h.store;
    });
    afterEach(() => h.cleanup());

    it("adds bookings per row and lists them by kind, subject and period", async () => {
      await store.recordSpend([
        { kind: "user", subject: "u1", period: DAY, tokens: 10, cost: 0.5 },
        { kind: "agent", subject: "main", period: DAY, tokens: 10, cost: 0.5 },
        { kind: "user", subject: "u1", period: DAY, tokens: 5, cost: 0.25 },
      ]);
      await store.recordSpend([{ kind: "agent", subject: "main", period: "2026-11-25", tokens: 1, cost: 0 }]);
      const rows = await store.listSpend();
      expect(rows.map((row) => [row.kind, row.subject, row.period, row.tokens, row.cost])).toEqual([
        ["agent", "main", "2026-11-25", 1, 0],
        ["agent", "main", DAY, 10, 0.5],
        ["user", "u1", DAY, 15, 0.75],
      ]);
      expect(
        (await store.listSpend({ kind: "agent", fromPeriod: DAY, toPeriod: DAY })).map((row) => row.tokens),
      ).toEqual([10]);
      expect(await store.listSpend({ subject: "nobody" })).toEqual([]);
    });

    it("keeps an agent's spend per kind of call in rows of their own, listed by kind", async () => {
      await store.recordSpend([
        { kind: "agent", subject: "main", period: DAY, tokens: 30, cost: 0.3 },
        { kind: "purpose", subject: "main:turn", period: DAY, tokens: 20, cost: 0.2 },
        { kind: "purpose", subject: "main:taco", period: DAY, tokens: 10, cost: 0.1 },
      ]);
      await store.recordSpend([{ kind: "purpose", subject: "main:taco", period: DAY, tokens: 5, cost: 0.05 }]);
      const rows = await store.listSpend({ kind: "purpose", fromPeriod: DAY, toPeriod: DAY });
      expect(rows.map((row) => [row.subject, row.tokens])).toEqual([
        ["main:taco", 15],
        ["main:turn", 20],
      ]);
      expect((await store.listSpend({ kind: "agent" })).map((row) => row.tokens)).toEqual([30]);
    });

    it("refuses a negative or fractional booking, storing nothing", async () => {
      const error = await store
        .recordSpend([
          { kind: "agent", subject: "main", period: DAY, tokens: 1, cost: 0 },
          { kind: "agent", subject: "main", period: DAY, tokens: -1, cost: 0 },
        ])
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(SessionStoreError);
      expect((error as SessionStoreError).code).toBe("invalid-input");
      expect(await store.listSpend()).toEqual([]);
    });

    it("holds within every limit, refuses past any (holding nothing), and settles what was used", async () => {
      expect(await store.holdSpend(hold("h1", 400, [agentDay, goalTotal]))).toEqual({ ok: true });
      const refused = await store.holdSpend(hold("h2", 200, [agentDay, goalTotal]));
      expect(refused).toMatchObject({ ok: false, limit: { kind: "goal" }, row: { reservedTokens: 400 } });
      const [agentRow] = await store.listSpend({ kind: "agent" });
      expect(agentRow).toMatchObject({ tokens: 0, reservedTokens: 400 });

      await store.settleSpend("h1", [
        { kind: "agent", subject: "main", period: DAY, tokens: 150, cost: 0.15 },
        { kind: "goal", subject: "g1", period: "total", tokens: 150, cost: 0.15 },
      ]);
      const rows = await store.listSpend();
      expect(rows.map((row) => [row.kind, row.tokens, row.reservedTokens])).toEqual([
        ["agent", 150, 0],
        ["goal", 150, 0],
      ]);
      expect(await store.holdSpend(hold("h3", 350, [agentDay, goalTotal]))).toEqual({ ok: true });
      expect(await store.holdSpend(hold("h4", 1, [goalTotal]))).toMatchObject({ ok: false });
    });

    it("releases a lapsed hold when it would refuse a new one", async () => {
      expect(await store.holdSpend(hold("dead", 900, [agentDay], h.clock.now + 60_000))).toEqual({ ok: true });
      expect(await store.holdSpend(hold("h1", 200, [agentDay]))).toMatchObject({ ok: false });
      h.clock.now += 60_001;
      expect(await store.holdSpend(hold("h2", 200, [agentDay]))).toEqual({ ok: true });
      expect((await store.listSpend({ kind: "agent" }))[0]).toMatchObject({ reservedTokens: 200 });
      // Settling the lapsed hold later frees nothing twice; its use is still booked.
      await store.settleSpend("dead", [{ kind: "agent", subject: "main", period: DAY, tokens: 5, cost: 0 }]);
      expect((await store.listSpend({ kind: "agent" }))[0]).toMatchObject({ tokens: 5, reservedTokens: 200 });
    });

    it("refuses a hold larger than its limit on a row never written", async () => {
      expect(await store.holdSpend(hold("h1", 2_000, [agentDay]))).toMatchObject({
        ok: false,
        row: { tokens: 0, reservedTokens: 0 },
      });
    });
  });
}
