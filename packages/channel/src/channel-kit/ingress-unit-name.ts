import { createHash } from "node:crypto";

/**
 * The name of an ingress unit of a bot account, for `IngressLeases.run`: the platform, a hash of the account's token
 * (the same on every instance, never the token itself: unit names are in the database and the logs) and an optional
 * part such as a shard number.
 * Example: `ingressUnitName("discord", token, 1)` → `discord:3fa2c81d9b0e4f17:1`.
 */
export function ingressUnitName(platform: string, token: string, part?: string | number): string {
  const hash = createHash("sha256").update(token).digest("hex").slice(0, 16);
  return part === undefined ? `${platform}:${hash}` : `${platform}:${hash}:${part}`;
}
