import { describe, expect, it } from "vitest";
import { utcDay } from "../src/spend-window.js";

// utcDay remembers the last day it named; every answer must still be what a fresh Date says.
const fresh = (at: number): string => new Date(at).toISOString().slice(0, 10);

describe("utcDay", () => {
  it("names the UTC day of each moment, across day boundaries in any order", () => {
    const midnight = Date.UTC(2026, 10, 25);
    const moments = [
      midnight,
      midnight + 1,
      midnight - 1,
      midnight + 86_399_999,
      midnight + 86_400_000,
      midnight - 86_400_000,
      midnight + 12 * 3_600_000,
      0,
      -1,
      -0.5,
      -86_400_000,
      -86_400_001,
      midnight - 0.5,
      midnight + 86_399_999.9,
    ];
    for (const at of [...moments, ...moments.toReversed(), ...moments]) expect(utcDay(at)).toBe(fresh(at));
  });

  it("still refuses a time that is not one", () => {
    utcDay(Date.UTC(2026, 0, 1));
    expect(() => utcDay(Number.NaN)).toThrow(RangeError);
  });
});
