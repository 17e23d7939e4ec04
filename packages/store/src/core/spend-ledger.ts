import { SessionStoreError } from "../session-store-error.js";
import type {
  SpendBooking,
  SpendFilter,
  SpendHold,
  SpendHoldResult,
  SpendKey,
  SpendKind,
  SpendLimit,
  SpendRow,
} from "../store-types.js";
import type { StoredRow } from "./stored-rows.js";

// The spend ledger's rules, once for every store: which amounts are valid, the order rows are locked in (so that two
// holds never wait for each other), whether a hold fits a row. Embedded stores (memory, SQLite) run `holdSpendOn` and
// `settleSpendOn` over their own `SpendTable`; PostgreSQL runs the same rules as SQL.

const SPEND_KINDS: readonly SpendKind[] = ["agent", "user", "goal", "schedule", "purpose"];

/** One row's held share of a hold. */
export interface HeldSpend extends SpendKey {
  readonly id: string;
  readonly tokens: number;
  readonly cost: number;
  readonly heldUntil: number;
}

/** The rows and holds of an embedded store, read and written synchronously inside one transaction. */
export interface SpendTable {
  row(key: SpendKey): SpendRow | undefined;
  write(row: SpendRow): void;
  /** Adds a booking to its row (created at zero); SQL stores do it in one upsert. */
  add(booking: SpendBooking, now: number): void;
  list(filter: SpendFilter): SpendRow[];
  holdsOf(id: string): HeldSpend[];
  lapsedHolds(key: SpendKey, now: number): HeldSpend[];
  addHold(hold: HeldSpend): void;
  deleteHold(hold: HeldSpend): void;
}

/** Orders rows by kind, subject, period: every store locks a hold's rows in this order. */
export function compareSpendKeys(a: SpendKey, b: SpendKey): number {
  return a.kind < b.kind
    ? -1
    : a.kind > b.kind
      ? 1
      : a.subject < b.subject
        ? -1
        : a.subject > b.subject
          ? 1
          : a.period < b.period
            ? -1
            : a.period > b.period
              ? 1
              : 0;
}

/** The identity of a row, for maps. */
export function spendKeyText(key: SpendKey): string {
  return `${key.kind}\u0000${key.subject}\u0000${key.period}`;
}

function checkAmounts(tokens: number, cost: number, what: string): void {
  if (!Number.isSafeInteger(tokens) || tokens < 0 || !Number.isFinite(cost) || cost < 0) {
    throw new SessionStoreError(
      "invalid-input",
      `The ${what} must be a whole number of tokens and a cost of 0 or more (got ${tokens} tokens, ${cost}).`,
    );
  }
}

function checkKey(key: SpendKey, what: string): void {
  if (!SPEND_KINDS.includes(key.kind) || key.subject === "" || key.period === "") {
    throw new SessionStoreError(
      "invalid-input",
      `The ${what} needs a kind (${SPEND_KINDS.join(", ")}), a subject and a period (got ${JSON.stringify(key)}).`,
    );
  }
}

/** Validates bookings and merges those of one row, in lock order. Contract: throws `invalid-input` for a bad one. */
export function mergeBookings(bookings: readonly SpendBooking[]): SpendBooking[] {
  const merged = new Map<string, SpendBooking>();
  for (const booking of bookings) {
    checkKey(booking, "spend booking");
    checkAmounts(booking.tokens, booking.cost, "spend booking");
    const key = spendKeyText(booking);
    const held = merged.get(key);
    merged.set(
      key,
      held === undefined
        ? {
            kind: booking.kind,
            subject: booking.subject,
            period: booking.period,
            tokens: booking.tokens,
            cost: booking.cost,
          }
        : { ...held, tokens: held.tokens + booking.tokens, cost: held.cost + booking.cost },
    );
  }
  return [...merged.values()].sort(compareSpendKeys);
}

/** Validates a hold; its limits in lock order, one per row. Contract: throws `invalid-input` for a bad one. */
export function holdLimits(hold: SpendHold): SpendLimit[] {
  checkAmounts(hold.tokens, hold.cost, "spend hold");
  if (hold.id === "") throw new SessionStoreError("invalid-input", "A spend hold needs an id.");
  const byRow = new Map<string, SpendLimit>();
  for (const limit of hold.limits) {
    checkKey(limit, "spend limit");
    byRow.set(spendKeyText(limit), limit);
  }
  return [...byRow.values()].sort(compareSpendKeys);
}

/** An empty row. */
export function zeroSpendRow(key: SpendKey, updatedAt: number): SpendRow {
  return {
    kind: key.kind,
    subject: key.subject,
    period: key.period,
    tokens: 0,
    cost: 0,
    reservedTokens: 0,
    reservedCost: 0,
    updatedAt,
  };
}

/** Whether `tokens`/`cost` more still fit in a row under a limit. */
export function holdFits(row: SpendRow, limit: SpendLimit, tokens: number, cost: number): boolean {
  if (limit.maxTokens !== undefined && row.tokens + row.reservedTokens + tokens > limit.maxTokens) return false;
  if (limit.maxCost !== undefined && row.cost + row.reservedCost + cost > limit.maxCost) return false;
  return true;
}

/** A spend ledger row of the SQL stores as a record. */
export function spendRowFromRow(row: StoredRow): SpendRow {
  return {
    kind: String(row.kind) as SpendKind,
    subject: String(row.subject),
    period: String(row.period),
    tokens: Number(row.tokens),
    cost: Number(row.cost),
    reservedTokens: Number(row.reserved_tokens),
    reservedCost: Number(row.reserved_cost),
    updatedAt: Number(row.updated_at),
  };
}

/** Adds bookings to their rows. Contract: call inside one transaction. */
export function recordSpendOn(table: SpendTable, bookings: readonly SpendBooking[], now: number): void {
  for (const booking of mergeBookings(bookings)) table.add(booking, now);
}

/** `SpendTable.add` for a table without an upsert of its own: read the row, write it back. */
export function addByRewrite(table: Pick<SpendTable, "row" | "write">, booking: SpendBooking, now: number): void {
  const row = table.row(booking) ?? zeroSpendRow(booking, now);
  table.write({ ...row, tokens: row.tokens + booking.tokens, cost: row.cost + booking.cost, updatedAt: now });
}

function release(table: SpendTable, held: HeldSpend, now: number): void {
  table.deleteHold(held);
  const row = table.row(held);
  if (row === undefined) return;
  table.write({
    ...row,
    reservedTokens: Math.max(0, row.reservedTokens - held.tokens),
    reservedCost: Math.max(0, row.reservedCost - held.cost),
    updatedAt: now,
  });
}

/** `SessionStore.holdSpend` over an embedded table. Contract: call inside one transaction; rolls back nothing itself. */
export function holdSpendOn(table: SpendTable, hold: SpendHold, now: number): SpendHoldResult {
  const limits = holdLimits(hold);
  for (const limit of limits) {
    let row = table.row(limit) ?? zeroSpendRow(limit, now);
    if (!holdFits(row, limit, hold.tokens, hold.cost)) {
      for (const lapsed of table.lapsedHolds(limit, now)) release(table, lapsed, now);
      row = table.row(limit) ?? zeroSpendRow(limit, now);
      if (!holdFits(row, limit, hold.tokens, hold.cost)) return { ok: false, limit, row };
    }
  }
  for (const limit of limits) {
    const row = table.row(limit) ?? zeroSpendRow(limit, now);
    table.write({
      ...row,
      reservedTokens: row.reservedTokens + hold.tokens,
      reservedCost: row.reservedCost + hold.cost,
      updatedAt: now,
    });
    table.addHold({
      id: hold.id,
      kind: limit.kind,
      subject: limit.subject,
      period: limit.period,
      tokens: hold.tokens,
      cost: hold.cost,
      heldUntil: hold.heldUntil,
    });
  }
  return { ok: true };
}

/** `SessionStore.settleSpend` over an embedded table. Contract: call inside one transaction. */
export function settleSpendOn(table: SpendTable, id: string, bookings: readonly SpendBooking[], now: number): void {
  const merged = mergeBookings(bookings);
  for (const held of table.holdsOf(id)) release(table, held, now);
  recordSpendOn(table, merged, now);
}

/** The spend ledger's operations of an embedded store core (memory, SQLite), as `SessionStoreCore` has them. */
export interface SpendLedgerOps {
  recordSpend(bookings: readonly SpendBooking[]): void;
  listSpend(filter?: SpendFilter): SpendRow[];
  holdSpend(hold: SpendHold): SpendHoldResult;
  settleSpend(id: string, bookings: readonly SpendBooking[]): void;
}

/**
 * The four spend ledger operations over an embedded store's table and clock, so each core only says where its rows
 * live. Contract: each operation asks for the table afresh (it may depend on an open transaction).
 */
export function spendLedgerOps(table: () => SpendTable, now: () => number): SpendLedgerOps {
  return {
    recordSpend: (bookings) => recordSpendOn(table(), bookings, now()),
    listSpend: (filter = {}) => table().list(filter),
    holdSpend: (hold) => holdSpendOn(table(), hold, now()),
    settleSpend: (id, bookings) => settleSpendOn(table(), id, bookings, now()),
  };
}
