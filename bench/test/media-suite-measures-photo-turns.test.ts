import { describe, expect, it } from "vitest";
import { measurePhotoBurst, measurePhotoTurns, noisePhotos } from "../src/measure/media-turn.js";
import { mediaOptions, photoBurstTable, photoTurnsTable } from "../src/suites/media.js";

const SMALL = { width: 1800, height: 200, quality: 80 };

describe("the media suite", () => {
  it("times text, cold and warm photo turns and a burst of photos under the memory cap", async () => {
    const photos = await noisePhotos(4, SMALL);
    expect(new Set(photos.map((photo) => Buffer.from(photo).toString("base64"))).size).toBe(4);

    const turns = await measurePhotoTurns({ turns: 3, warmupTurns: 1, photos });
    expect(turns.rows.map((row) => row.kind)).toEqual(["text", "cold", "warm"]);
    for (const row of turns.rows) {
      expect(row.samples).toBe(3);
      expect(Number.isFinite(row.p50Ms) && row.p50Ms >= 0).toBe(true);
      expect(row.p95Ms).toBeGreaterThanOrEqual(row.p50Ms);
    }
    // Cold turns download their photo; warm ones read it from the cache.
    expect(turns.rows.map((row) => row.fetches)).toEqual([0, 3, 0]);
    const turnsTable = photoTurnsTable(turns, 1);
    expect(turnsTable.rows).toHaveLength(3);
    expect(turnsTable.rows[2]?.at(-1)).toMatch(/warm adds ≤ 20 ms p50: (met|MISSED)/);

    const largest = Math.max(...photos.map((photo) => photo.byteLength));
    const cap = Math.max(1024 * 1024, 2 * largest);
    const burst = await measurePhotoBurst({ chats: 3, maxBytesInMemory: cap, maxConcurrentTurns: 3, photos });
    expect(burst.heldPeakBytes).toBeGreaterThan(0);
    expect(burst.heldPeakBytes).toBeLessThanOrEqual(burst.capBytes);
    expect(burst.wallMs).toBeGreaterThan(0);
    expect(burst.samples).toBeGreaterThan(0);
    const burstTable = photoBurstTable([burst]);
    expect(burstTable.rows[0]).toHaveLength(burstTable.headers.length);
  }, 120_000);

  it("reads its flags", () => {
    expect(mediaOptions(new Map())).toMatchObject({ turns: 40, chats: 50, capMb: 16, tables: ["turns", "burst"] });
    expect(
      mediaOptions(
        new Map([
          ["table", ["burst"]],
          ["turns", ["5"]],
        ]),
      ),
    ).toMatchObject({
      turns: 5,
      tables: ["burst"],
    });
    expect(() => mediaOptions(new Map([["table", ["all"]]]))).toThrow(/--table all/);
  });
});
