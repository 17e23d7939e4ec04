import { afterEach, expect, it, vi } from "vitest";
import { timeOrderedId } from "../src/index.js";

afterEach(() => {
  vi.useRealTimers();
});

it("makes run ids that are unique and sort in the order they were made, also within one millisecond", () => {
  vi.useFakeTimers({ now: new Date("2026-11-22T03:00:00Z"), toFake: ["Date"] });
  const ids: string[] = [];
  for (let i = 0; i < 500; i++) ids.push(timeOrderedId("run_"));
  vi.setSystemTime(new Date("2026-11-22T03:00:00.001Z"));
  for (let i = 0; i < 500; i++) ids.push(timeOrderedId("run_"));
  vi.setSystemTime(new Date("2026-11-23T03:00:00Z"));
  ids.push(timeOrderedId("run_"));

  expect(new Set(ids).size).toBe(ids.length);
  expect([...ids].sort()).toEqual(ids);
  expect(ids.every((id) => id.startsWith("run_"))).toBe(true);
});
