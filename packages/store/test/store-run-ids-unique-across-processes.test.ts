import { afterEach, expect, it, vi } from "vitest";

afterEach(() => {
  vi.useRealTimers();
  vi.resetModules();
});

/** A fresh copy of the id module stands for another process: its own counter and its own random bits. */
async function freshTimeOrderedId(): Promise<(prefix: string) => string> {
  vi.resetModules();
  return (await import("../src/core/time-ordered-id.js")).timeOrderedId;
}

it("makes different ids in two processes that start in the same millisecond", async () => {
  vi.useFakeTimers({ now: new Date("2026-11-22T03:00:00Z"), toFake: ["Date"] });
  const first = await freshTimeOrderedId();
  const second = await freshTimeOrderedId();
  const a = [first("run_"), first("run_")];
  const b = [second("run_"), second("run_")];
  expect(new Set([...a, ...b]).size).toBe(4);
  // The counter part is equal, so only the per-process random part tells them apart.
  expect(a[0]?.slice(0, -12)).toBe(b[0]?.slice(0, -12));
});

it("keeps ids unique and in order when the clock steps back", async () => {
  vi.useFakeTimers({ now: new Date("2026-11-22T03:00:00.005Z"), toFake: ["Date"] });
  const timeOrderedId = await freshTimeOrderedId();
  const ids = [timeOrderedId("run_")];
  vi.setSystemTime(new Date("2026-11-22T03:00:00.001Z"));
  ids.push(timeOrderedId("run_"), timeOrderedId("run_"));
  expect(new Set(ids).size).toBe(3);
  expect([...ids].sort()).toEqual(ids);
});
