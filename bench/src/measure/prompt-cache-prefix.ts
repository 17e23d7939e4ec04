/**
 * What a prompt cache could serve of each request: Anthropic caches the request in the order
 * tools → system → messages, up to a `cache_control` breakpoint, and serves it to a later
 * request whose blocks up to there are byte-identical. The request is cut into those blocks
 * (cache_control removed, so a moving breakpoint does not count as a change).
 */
export interface CacheBlock {
  /** Where the block sits: "tools[2]", "system[0]", "messages[5][1]". */
  where: string;
  bytes: number;
  text: string;
  breakpoint: boolean;
}

/** One request compared with the previous request of the same conversation. */
export interface PrefixMeasure {
  totalBytes: number;
  /** Bytes of the leading blocks identical to the previous request's. */
  prefixBytes: number;
  /** Bytes up to the last breakpoint of the previous request inside that prefix (what the cache holds). */
  cacheableBytes: number;
  /** Where this request's breakpoints sit. */
  breakpoints: string[];
  /** No previous request to compare with. */
  first: boolean;
  /** The first block that differs from the previous request, if any. */
  firstDifference: string | undefined;
}

/** Cuts an Anthropic Messages API request body into cache-order blocks. */
export function cacheBlocks(body: Record<string, unknown>): CacheBlock[] {
  const blocks: CacheBlock[] = [];
  const add = (where: string, value: unknown): void => {
    const { cache_control, ...rest } = value as Record<string, unknown>;
    const text = JSON.stringify(rest);
    blocks.push({ where, bytes: Buffer.byteLength(text), text, breakpoint: cache_control !== undefined });
  };
  const tools = (body.tools as unknown[] | undefined) ?? [];
  for (const [i, tool] of tools.entries()) add(`tools[${i}]`, tool);
  const system = typeof body.system === "string" ? [{ text: body.system }] : ((body.system as unknown[]) ?? []);
  for (const [i, block] of system.entries()) add(`system[${i}]`, block);
  const messages = (body.messages as { role: string; content: unknown }[] | undefined) ?? [];
  for (const [m, message] of messages.entries()) {
    const content = typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
    for (const [b, block] of (content as unknown[]).entries()) {
      add(`messages[${m}][${b}]`, { role: message.role, ...(block as Record<string, unknown>) });
    }
  }
  return blocks;
}

/** Measures `current` against `previous` (undefined for a conversation's first request). */
export function measurePrefix(current: CacheBlock[], previous: CacheBlock[] | undefined): PrefixMeasure {
  const totalBytes = current.reduce((sum, block) => sum + block.bytes, 0);
  const breakpoints = current.filter((block) => block.breakpoint).map((block) => block.where);
  let prefixBytes = 0;
  let cacheableBytes = 0;
  let firstDifference: string | undefined;
  if (previous) {
    for (let i = 0; i < current.length; i++) {
      const before = previous[i];
      const now = current[i] as CacheBlock;
      if (!before || before.text !== now.text) {
        firstDifference = now.where;
        break;
      }
      prefixBytes += now.bytes;
      if (before.breakpoint) cacheableBytes = prefixBytes;
    }
  }
  return { totalBytes, prefixBytes, cacheableBytes, breakpoints, first: previous === undefined, firstDifference };
}
