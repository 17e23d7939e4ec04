import { isIP } from "node:net";

/**
 * The 16 bytes of an IPv6 literal (zone id dropped, `::` expanded, a trailing dotted IPv4 part folded in).
 * Contract: undefined for anything that is not a valid IPv6 literal.
 */
export function ipv6Bytes(address: string): Uint8Array | undefined {
  const literal = address.split("%")[0] ?? "";
  if (isIP(literal) !== 6) return undefined;
  let text = literal.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [left = "", right] = text.split("::");
  const head = left === "" ? [] : left.split(":");
  const tail = right === undefined || right === "" ? [] : right.split(":");
  const groups = right === undefined ? head : [...head, ...Array(8 - head.length - tail.length).fill("0"), ...tail];
  if (groups.length !== 8) return undefined;
  const bytes = new Uint8Array(16);
  groups.forEach((group, i) => {
    const value = Number.parseInt(group, 16);
    bytes[i * 2] = value >> 8;
    bytes[i * 2 + 1] = value & 255;
  });
  return bytes;
}

/** Dotted IPv4 text of four bytes of `bytes` from `offset`, each XORed with `mask` (Teredo obfuscates with 0xff). */
export function ipv4At(bytes: Uint8Array, offset: number, mask = 0): string {
  return [0, 1, 2, 3].map((i) => ((bytes[offset + i] ?? 0) ^ mask) & 255).join(".");
}
