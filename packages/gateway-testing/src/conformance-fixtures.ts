import type { Usage } from "@chorus/core";
import type { NewSession } from "@chorus/store";

/** One hour in ms, for moving a store's clock. */
export const HOUR = 60 * 60 * 1000;

/** A new Telegram DM session (chat "42" on account "bot") under `key`, owned by `agentId`. */
export function dmSession(key = "main:bot:telegram:dm:42", agentId = "main"): NewSession {
  return { key, agentId, channel: "telegram", accountId: "bot", chatId: "42" };
}

/** A run's usage of `tokens` input tokens costing `cost` in total, nothing else. */
export function usage(tokens: number, cost: number): Usage {
  return {
    input: tokens,
    output: 0,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: tokens,
    cost: { input: cost, output: 0, cacheRead: 0, cacheWrite: 0, total: cost },
  };
}
