/**
 * Outcome of handing one inbound event to the bot.
 * `ok: false` never throws: a fake that cannot deliver says why in `reason`.
 */
export type Delivery<T> =
  | { readonly ok: true; readonly item: T; readonly status?: number }
  | { readonly ok: false; readonly item: T; readonly reason: string; readonly status?: number };
