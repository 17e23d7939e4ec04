import { BlockList, isIP } from "node:net";
import { ipv4At, ipv6Bytes } from "./ipv6-bytes.js";

// Loopback, private, link-local (cloud metadata lives at 169.254.169.254 and fd00:ec2::254),
// carrier-grade NAT, benchmarking, multicast and reserved ranges: nothing a web fetch should reach.
const blocked = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  blocked.addSubnet(net, prefix, "ipv4");
}
for (const [net, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const) {
  blocked.addSubnet(net, prefix, "ipv6");
}

/** What an IPv6 address says about the IPv4 address inside it. */
type Embedded =
  | { kind: "ipv4"; addresses: string[] }
  /** A form whose IPv4 part cannot be located safely (local-use NAT64 picks its own prefix length). */
  | { kind: "refuse" }
  | { kind: "none" };

const startsWith = (bytes: Uint8Array, prefix: readonly number[]): boolean => prefix.every((b, i) => bytes[i] === b);
const zeros = (n: number): number[] => Array(n).fill(0);

/**
 * The IPv4 addresses an IPv6 address carries: IPv4-compatible `::a.b.c.d` (also written `::7f00:1`), IPv4-mapped
 * `::ffff:a.b.c.d`, IPv4-translated `::ffff:0:a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`, Teredo `2001::/32`
 * (server, and client XOR 0xffffffff) and ISATAP interface ids (`…:0:5efe:a.b.c.d`, `…:200:5efe:a.b.c.d`).
 */
function embeddedIpv4(bytes: Uint8Array): Embedded {
  if (startsWith(bytes, zeros(12))) return { kind: "ipv4", addresses: [ipv4At(bytes, 12)] };
  if (startsWith(bytes, [...zeros(10), 0xff, 0xff])) return { kind: "ipv4", addresses: [ipv4At(bytes, 12)] };
  if (startsWith(bytes, [...zeros(8), 0xff, 0xff, 0, 0])) return { kind: "ipv4", addresses: [ipv4At(bytes, 12)] };
  if (startsWith(bytes, [0, 0x64, 0xff, 0x9b, ...zeros(8)])) return { kind: "ipv4", addresses: [ipv4At(bytes, 12)] };
  if (startsWith(bytes, [0, 0x64, 0xff, 0x9b, 0, 1])) return { kind: "refuse" };
  if (startsWith(bytes, [0x20, 0x02])) return { kind: "ipv4", addresses: [ipv4At(bytes, 2)] };
  if (startsWith(bytes, [0x20, 0x01, 0, 0])) {
    return { kind: "ipv4", addresses: [ipv4At(bytes, 4), ipv4At(bytes, 12, 0xff)] };
  }
  if ((bytes[8] === 0 || bytes[8] === 2) && startsWith(bytes.subarray(9), [0, 0x5e, 0xfe])) {
    return { kind: "ipv4", addresses: [ipv4At(bytes, 12)] };
  }
  return { kind: "none" };
}

/**
 * True for addresses a server-side fetch must not reach by default: loopback, private,
 * link-local, metadata, multicast and reserved ranges, and every IPv6 form that embeds an IPv4
 * address judged like that IPv4 address (see embeddedIpv4).
 * Contract: anything that is not a valid IP literal counts as private (fail closed); an IPv6 address embedding a
 * private IPv4 address is private; local-use NAT64 (64:ff9b:1::/48) is always private.
 * @example isPrivateAddress("::7f00:1") // true: it carries 127.0.0.1
 */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address.split("%")[0] ?? "");
  if (family === 4) return blocked.check(address, "ipv4");
  const bytes = family === 6 ? ipv6Bytes(address) : undefined;
  if (bytes === undefined) return true;
  const bare = address.split("%")[0] ?? "";
  if (blocked.check(bare, "ipv6")) return true;
  const embedded = embeddedIpv4(bytes);
  if (embedded.kind === "refuse") return true;
  if (embedded.kind === "ipv4") return embedded.addresses.some((v4) => blocked.check(v4, "ipv4"));
  return false;
}
