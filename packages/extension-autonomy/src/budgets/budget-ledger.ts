import { formatCost } from "@chorus/gateway";
import { addSpend, NO_SPEND, type Spend, subtractSpend } from "@chorus/store";

/** One limit a model call counts against: a scope (e.g. an agent's day, a goal) and its caps. */
export interface BudgetLimit {
  /** Identifies what is counted, e.g. `agent:main:2026-11-25` or `goal:<id>`; the same scope is one account. */
  readonly scope: string;
  /** Says what it is in chat, e.g. "agent main's daily budget". */
  readonly label: string;
  readonly tokens?: number;
  readonly cost?: number;
  /** What was spent in this scope before this process counted (read from the store once, at first use). */
  seed(): Promise<Spend>;
}

/**
 * Why a call does not fit a limit, as the chat is told; undefined when it fits.
 * Contract: the first cap passed is named, with what is spent, reserved and what the call may need.
 */
export function exhaustedText(
  limit: Pick<BudgetLimit, "label" | "tokens" | "cost">,
  spent: Spend,
  held: Spend,
  estimate: Spend,
): string | undefined {
  if (limit.tokens !== undefined && spent.tokens + held.tokens + estimate.tokens > limit.tokens) {
    return (
      `${limit.label} of ${limit.tokens} tokens is exhausted (${spent.tokens} spent, ${held.tokens} reserved; ` +
      `the next model call may need ${estimate.tokens})`
    );
  }
  if (limit.cost !== undefined && spent.cost + held.cost + estimate.cost > limit.cost) {
    return (
      `${limit.label} of ${formatCost(limit.cost)} is exhausted (${formatCost(spent.cost)} spent, ${formatCost(held.cost)} reserved; ` +
      `the next model call may cost ${formatCost(estimate.cost)})`
    );
  }
  return undefined;
}

/** A reservation: `settle` books what the call really used and frees what was held. */
export type Reservation =
  | { readonly ok: true; settle(actual: Spend): void }
  | { readonly ok: false; readonly exhausted: string };

/**
 * The reservation ledger: a model call first reserves its worst case in every scope it counts against, and runs only
 * if each scope's spent + reserved + this call stays within its limits; after the call the real use is booked and the
 * reservation freed. The check and the reservation happen in one synchronous step, so concurrent calls cannot
 * overspend. Contract: one ledger per process (a gateway alone on its store; a cluster reserves in the store itself,
 * see `SessionStore.holdSpend`); spent totals are seeded from the store once per scope.
 */
export class BudgetLedger {
  readonly #spent = new Map<string, Spend>();
  readonly #reserved = new Map<string, Spend>();
  readonly #seeds = new Map<string, Promise<void>>();

  /** Reserves `estimate` in every limit's scope. Contract: refused (nothing held) when any limit would be passed. */
  async reserve(limits: readonly BudgetLimit[], estimate: Spend): Promise<Reservation> {
    await Promise.all(limits.map((limit) => this.#seed(limit)));
    for (const limit of limits) {
      const refusal = this.#refusal(limit, estimate);
      if (refusal !== undefined) return { ok: false, exhausted: refusal };
    }
    for (const limit of limits) this.#reserved.set(limit.scope, addSpend(this.#held(limit.scope), estimate));
    let settled = false;
    return {
      ok: true,
      settle: (actual) => {
        if (settled) return;
        settled = true;
        for (const limit of limits) {
          this.#reserved.set(limit.scope, subtractSpend(this.#held(limit.scope), estimate));
          this.#spent.set(limit.scope, addSpend(this.spent(limit.scope), actual));
        }
      },
    };
  }

  /** What a scope has spent (settled), as far as this process knows. */
  spent(scope: string): Spend {
    return this.#spent.get(scope) ?? NO_SPEND;
  }

  /** What calls under way hold in a scope now. */
  reserved(scope: string): Spend {
    return this.#held(scope);
  }

  #held(scope: string): Spend {
    return this.#reserved.get(scope) ?? NO_SPEND;
  }

  #refusal(limit: BudgetLimit, estimate: Spend): string | undefined {
    return exhaustedText(limit, this.spent(limit.scope), this.#held(limit.scope), estimate);
  }

  #seed(limit: BudgetLimit): Promise<void> {
    let seeded = this.#seeds.get(limit.scope);
    if (seeded === undefined) {
      seeded = limit.seed().then((spend) => {
        this.#spent.set(limit.scope, addSpend(this.spent(limit.scope), spend));
      });
      // A failed read is tried again by the next call rather than counting as nothing spent.
      seeded.catch(() => this.#seeds.delete(limit.scope));
      this.#seeds.set(limit.scope, seeded);
    }
    return seeded;
  }
}
