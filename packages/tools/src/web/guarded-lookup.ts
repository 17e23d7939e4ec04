import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import type { LookupFunction } from "node:net";
import { isPrivateAddress } from "./private-address.js";

/** Who may be reached even though the address is private (tests, intranet deployments). */
export interface NetworkAllowance {
  /** Allow every private/loopback/link-local address. Default false. */
  allowPrivateNetwork?: boolean;
  /** Host names or IP literals exempt from the private-address check (exact, case-insensitive). */
  allowedHosts?: string[];
}

/** A fetch refused by the SSRF guard. */
export class BlockedAddressError extends Error {
  override readonly name = "BlockedAddressError";
}

/** True when `host` may be contacted at a private address. */
export function isHostAllowed(host: string, allowance: NetworkAllowance): boolean {
  if (allowance.allowPrivateNetwork) return true;
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase();
  return (allowance.allowedHosts ?? []).some((h) => h.toLowerCase() === bare);
}

/**
 * A DNS lookup for http.request that refuses private addresses after resolution, so the
 * address checked is the address connected to (no DNS-rebinding gap).
 * Contract: fails with BlockedAddressError when any resolved address is private and the host is
 * not allowed.
 */
export function guardedLookup(allowance: NetworkAllowance): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, "", 0);
      const bad = addresses.find((a) => isPrivateAddress(a.address));
      if (bad && !isHostAllowed(hostname, allowance)) {
        return callback(
          new BlockedAddressError(`${hostname} resolves to ${bad.address}, a private or local address; fetch refused.`),
          "",
          0,
        );
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      const first = addresses[0];
      if (!first) return callback(new Error(`${hostname} did not resolve`), "", 0);
      callback(null, first.address, first.family);
    });
  };
}
