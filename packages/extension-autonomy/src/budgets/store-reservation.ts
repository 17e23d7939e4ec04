import { randomUUID } from "node:crypto";
import type { SessionStore, Spend, SpendBooking, SpendKey, SpendLimit } from "@chorus/store";
import { exhaustedText, type Reservation } from "./budget-ledger.js";

/** How long a hold lasts when its gateway dies before settling it: longer than any model call should take. */
export const HOLD_LAPSES_AFTER_MS = 15 * 60 * 1000;

/** A limit a call counts against, for a reservation in the store: the ledger row, its caps and how chat names it. */
export interface StoreBudgetLimit {
  readonly key: SpendKey;
  readonly label: string;
  readonly tokens?: number;
  readonly cost?: number;
}

/** What a settled reservation books and where its bookings go. */
export interface StoreReservationParts {
  readonly store: SessionStore;
  readonly now: () => number;
  /** The rows a call's real use is booked in (its agent's day, its user's day, its goal, its schedule). */
  bookings(actual: Spend): SpendBooking[];
  /** Runs the settle write in the background (tracked and logged by the gateway). */
  persist(work: Promise<unknown>): void;
}

/**
 * Reserves one call's worst case in the store (`holdSpend`): atomic across every gateway sharing the store, so a
 * cluster's instances together never overspend one budget. Settling frees the hold and books the real use in one
 * statement. Contract: refused → nothing held, with the same text as the in-process ledger's refusal.
 */
export async function reserveInStore(
  parts: StoreReservationParts,
  limits: readonly StoreBudgetLimit[],
  estimate: Spend,
): Promise<Reservation> {
  const id = randomUUID();
  const byRow = limits.map(
    (limit): SpendLimit => ({
      ...limit.key,
      ...(limit.tokens === undefined ? {} : { maxTokens: limit.tokens }),
      ...(limit.cost === undefined ? {} : { maxCost: limit.cost }),
    }),
  );
  const result = await parts.store.holdSpend({
    id,
    limits: byRow,
    tokens: estimate.tokens,
    cost: estimate.cost,
    heldUntil: parts.now() + HOLD_LAPSES_AFTER_MS,
  });
  if (!result.ok) {
    const limit =
      limits.find(
        (candidate) =>
          candidate.key.kind === result.limit.kind &&
          candidate.key.subject === result.limit.subject &&
          candidate.key.period === result.limit.period,
      ) ?? limits[0]!;
    const { row } = result;
    const spent = { tokens: row.tokens, cost: row.cost };
    const held = { tokens: row.reservedTokens, cost: row.reservedCost };
    return {
      ok: false,
      exhausted: exhaustedText(limit, spent, held, estimate) ?? `${limit.label} is exhausted`,
    };
  }
  let settled = false;
  return {
    ok: true,
    settle: (actual) => {
      if (settled) return;
      settled = true;
      parts.persist(parts.store.settleSpend(id, parts.bookings(actual)));
    },
  };
}
