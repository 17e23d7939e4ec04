/**
 * Gives `target` an enumerable, read-only property `key` whose value is `json` parsed on first read (then kept), for a
 * stored JSON field a caller usually ignores (e.g. the payload of an entry just marked sent): the parse is paid only
 * if read. Contract: reads, spreads, `Object.keys`, deep equality and structured clones see the parsed value.
 */
export function defineLazyJson<T extends object>(target: T, key: string, json: string): T {
  let parsed: { value: unknown } | undefined;
  Object.defineProperty(target, key, {
    enumerable: true,
    configurable: true,
    get() {
      parsed ??= { value: JSON.parse(json) };
      return parsed.value;
    },
  });
  return target;
}
