import type { ToolPolicy } from "./tool-policy.js";

/** Who is asking: decided per message by the host (the gateway), never by prompt text. */
export type TrustTier = "owner" | "trusted" | "guest";

/**
 * Default policy of each tier. owner: everything. trusted: read files, web, harmless facts and long-term memory.
 * guest: harmless facts only — no file reads, writes, exec, web, sessions, admin, MCP or memory tools. A host that grants guests
 * reads of some folders allows `group:fs-read` for guests and confines their reads (see confineGuestsTo).
 * Tools in no group are denied to trusted and guest (fail closed).
 */
export const DEFAULT_TIER_POLICIES: Readonly<Record<TrustTier, ToolPolicy>> = {
  owner: { allow: ["*"] },
  trusted: { allow: ["group:fs-read", "group:web", "group:info", "group:memory"] },
  guest: { allow: ["group:info"] },
};

/** Parses a tier name. Contract: unknown values become "guest" (fail closed). */
export function parseTrustTier(value: unknown): TrustTier {
  return value === "owner" || value === "trusted" ? value : "guest";
}
