import { describe, expect, it } from "vitest";
import { chorusBaselineSystem } from "../src/side-by-side/chorus-system.js";
import type { SystemRunResult } from "../src/side-by-side/measure-system-run.js";
import type { SideBySideSeries } from "../src/side-by-side/run-side-by-side.js";
import { sideBySideTable } from "../src/side-by-side/side-by-side-report.js";
import { sideBySideSystems } from "../src/side-by-side/side-by-side-systems.js";

function round(messagesPerSecond: number, cpuMsPerMessage: number, p50Ms: number): SystemRunResult {
  return {
    messagesPerSecond,
    p50Ms,
    p99Ms: p50Ms * 2,
    cpuMsPerMessage,
    harnessCpuMsPerMessage: 0.5,
    counts: { injected: 1000, replies: 1000, duplicates: 0, losses: 0, strays: 0 },
    timedWindowUs: { start: 0, end: 1 },
  };
}

function series(id: string, rounds: SystemRunResult[]): SideBySideSeries {
  const system = [...sideBySideSystems, chorusBaselineSystem("/elsewhere")].find((s) => s.id === id);
  if (system === undefined) throw new Error(id);
  return { platform: "telegram", platformLabel: "Telegram", system, rounds };
}

describe("the side-by-side table", () => {
  it("compares msg/s round by round with Chat SDK + AI SDK (Redis) and prints issue #24's goals", () => {
    // A slow round hits both systems: the paired ratio stays 1.2× while the ratio of medians would say 0.75×.
    const table = sideBySideTable(
      [
        series("chat-sdk-echo-redis", [round(1000, 1, 40), round(1000, 1, 40), round(1000, 1, 40)]),
        series("chat-sdk-ai-redis", [round(500, 2.4, 100), round(400, 2.4, 100), round(100, 2.4, 100)]),
        series("chorus", [round(600, 1.8, 90), round(300, 1.8, 90), round(120, 1.8, 90)]),
      ],
      3,
      1000,
    );
    expect(table.rows.map((row) => [row[0], row[2], row[3], row[4], row[7], row[8], row[9]])).toEqual([
      ["Chat SDK echo (Redis)", "1 000", "2.50×", "n/a", "1.00", "3000/0/0", "1 000–1 000"],
      ["Chat SDK + AI SDK (Redis)", "400", "1.00×", "n/a", "2.40", "3000/0/0", "100–500"],
      ["Chorus (SQLite)", "300", "1.20×", "n/a", "1.80", "3000/0/0", "120–600"],
    ]);
    const goals = table.notes.filter((note) => note.startsWith("Telegram goal"));
    expect(goals).toEqual([
      "Telegram goal msg/s ≥ 1.00× Chat SDK + AI SDK (Redis): met (1.20×)",
      "Telegram goal CPU ms/msg ≤ Chat SDK + AI SDK (Redis): met (1.80 vs 2.40)",
      "Telegram goal p50 ≤ Chat SDK + AI SDK (Redis): met (90 vs 100 ms)",
      "Telegram goal p99 ≤ Chat SDK + AI SDK (Redis): met (180 vs 200 ms)",
      "Telegram goal msg/s ≥ 0.80× Chat SDK echo (Redis): MISSED (0.30×)",
    ]);
  });

  it("prints Chorus ÷ the lean Chat SDK + fetch bot for msg/s, CPU ms/msg, p50 and p99, each paired round by round", () => {
    // Round ratios (Chorus ÷ lean): msg/s 0.9, 0.8, 1.0 → 0.90; CPU 1.2, 1.1, 1.3 → 1.20; p50 and p99 1.5, 1.0, 2.0 → 1.50.
    const table = sideBySideTable(
      [
        series("chat-sdk-fetch-memory", [round(500, 2.0, 40), round(400, 2.0, 80), round(100, 2.0, 40)]),
        series("chorus", [round(450, 2.4, 60), round(320, 2.2, 80), round(100, 2.6, 80)]),
      ],
      3,
      1000,
    );
    expect(table.headers[4]).toBe("vs Chat SDK+fetch (memory)");
    expect(table.rows.map((row) => [row[0], row[3], row[4]])).toEqual([
      ["Chat SDK + fetch (memory)", "n/a", "1.00×"],
      ["Chorus (SQLite)", "n/a", "0.90×"],
    ]);
    expect(table.notes.filter((note) => note.startsWith("Telegram "))).toEqual([
      "Telegram Chorus ÷ Chat SDK + fetch (memory): msg/s 0.90×, CPU ms/msg 1.20×, p50 1.50×, p99 1.50×",
      "Telegram goals vs Chat SDK + fetch (memory) (#33): msg/s ≥ 1.00× MISSED, CPU ms/msg ≤ 1.00× MISSED, p99 ≤ 1.00× MISSED",
    ]);
  });

  it("says #33's goals against the lean bot are met when Chorus is as fast and as cheap round by round", () => {
    const table = sideBySideTable(
      [
        series("chat-sdk-fetch-memory", [round(500, 2.0, 80), round(400, 2.0, 80), round(300, 2.0, 80)]),
        series("chorus", [round(520, 1.9, 70), round(390, 2.1, 90), round(330, 1.8, 60)]),
      ],
      3,
      1000,
    );
    expect(table.notes.filter((note) => note.startsWith("Telegram goals"))).toEqual([
      "Telegram goals vs Chat SDK + fetch (memory) (#33): msg/s ≥ 1.00× met, CPU ms/msg ≤ 1.00× met, p99 ≤ 1.00× met",
    ]);
  });

  it("compares this build with a baseline build run in the same rounds, round by round, and says whether within 3 %", () => {
    const table = sideBySideTable(
      [
        series("chorus-baseline", [round(500, 2.0, 90), round(250, 2.0, 90), round(100, 2.0, 90)]),
        series("chorus", [round(490, 2.1, 90), round(240, 2.1, 90), round(99, 2.1, 90)]),
      ],
      3,
      1000,
    );
    expect(table.rows.map((row) => row[0])).toEqual(["Chorus baseline (SQLite)", "Chorus (SQLite)"]);
    expect(table.notes.filter((note) => note.includes("baseline build"))).toEqual([
      "Telegram this build vs the baseline build: msg/s 0.98×, CPU ms/msg 1.05× (medians 2.10 vs 2.00); within 3 %: MISSED",
    ]);
  });
});
