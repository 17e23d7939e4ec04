/** What every store statement needs besides its connection: the clock and the dedupe window. */
export interface StoreContext {
  /** The store's clock, epoch ms. */
  readonly now: () => number;
  /** How long an inbound event id is remembered. */
  readonly inboundTtlMs: number;
}
