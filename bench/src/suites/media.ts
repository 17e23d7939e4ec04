import {
  measurePhotoBurst,
  measurePhotoTurns,
  noisePhotos,
  type PhotoBurstResult,
  type PhotoTurnsResult,
  TWO_MB_PHOTO,
} from "../measure/media-turn.js";
import { formatNumber } from "../report/format-number.js";
import type { ReportTable } from "../report/report-types.js";
import type { BenchSuite } from "./bench-suite.js";

/** The extension counts memory in MiB (its `maxBytesInMemory: 16 * 1024 * 1024`); photo sizes are shown in MB. */
const MIB = 1024 * 1024;
const MB = 1_000_000;
const DEFAULTS = { turns: 40, warmup: 3, chats: 50, capMb: 16 };
/** Turns at once in the burst rows: the gateway's default, then one per chat (the memory cap alone bounds it). */
const BURST_TURN_LIMITS = [8, undefined] as const;
const GOAL_WARM_P50_MS = 20;

/** The media suite's flags: `--turns N`, `--warmup N`, `--chats N`, `--cap-mb N`, `--table turns|burst`. */
export interface MediaOptions {
  readonly turns: number;
  readonly warmup: number;
  readonly chats: number;
  readonly capMb: number;
  readonly tables: readonly ("turns" | "burst")[];
}

function whole(flags: ReadonlyMap<string, readonly string[]>, name: string, fallback: number, min: number): number {
  const text = flags.get(name)?.at(-1);
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min)
    throw new Error(`--${name} must be a whole number ≥ ${min}, got ${text}`);
  return value;
}

/** Reads the media suite's flags. Contract: throws naming a bad value. */
export function mediaOptions(flags: ReadonlyMap<string, readonly string[]>): MediaOptions {
  const tables = (flags.get("table") ?? []).flatMap((value) => value.split(",")).filter((value) => value !== "");
  for (const table of tables) {
    if (table !== "turns" && table !== "burst") throw new Error(`--table ${table}: expected turns or burst`);
  }
  return {
    turns: whole(flags, "turns", DEFAULTS.turns, 1),
    warmup: whole(flags, "warmup", DEFAULTS.warmup, 0),
    chats: whole(flags, "chats", DEFAULTS.chats, 1),
    capMb: whole(flags, "cap-mb", DEFAULTS.capMb, 1),
    tables: tables.length === 0 ? ["turns", "burst"] : (["turns", "burst"] as const).filter((t) => tables.includes(t)),
  };
}

const LABELS = { text: "text only (baseline)", cold: "photo, cache cold", warm: "photo, cache warm" } as const;

/** Table 1: delivery → model call per kind of turn, and what a photo adds over the text-only baseline. */
export function photoTurnsTable(result: PhotoTurnsResult, warmup: number): ReportTable {
  const baseline = result.rows.find((row) => row.kind === "text");
  return {
    title: `Media: one ${formatNumber(result.photoBytes / MB, 1)} MB photo per turn — TestChannel delivery → model call, full Gateway (SQLite) with the media extension`,
    headers: ["message", "turns", "p50 ms", "p95 ms", "max ms", "added p50 ms", "added p95 ms", "downloads", "goal"],
    rows: result.rows.map((row) => {
      const added = (value: number, base: number | undefined) =>
        row.kind === "text" || base === undefined ? "" : formatNumber(value - base, 1);
      const goal =
        row.kind === "warm"
          ? `warm adds ≤ ${GOAL_WARM_P50_MS} ms p50: ${
              baseline !== undefined && row.p50Ms - baseline.p50Ms <= GOAL_WARM_P50_MS ? "met" : "MISSED"
            }`
          : "";
      return [
        LABELS[row.kind],
        String(row.samples),
        formatNumber(row.p50Ms, 1),
        formatNumber(row.p95Ms, 1),
        formatNumber(row.maxMs, 1),
        added(row.p50Ms, baseline?.p50Ms),
        added(row.p95Ms, baseline?.p95Ms),
        String(row.fetches),
        goal,
      ];
    }),
    notes: [
      `${warmup} untimed rounds first; then rounds of three turns one at a time, each in a new DM chat (a new session, so each context holds at most one photo): text only; a photo never seen (${TWO_MB_PHOTO.width}×${TWO_MB_PHOTO.height} random-noise JPEG at quality ${TWO_MB_PHOTO.quality}, distinct bytes per round); a new message referencing the file the round's cold turn sent`,
      "timed from just before TestChannel.inject to the model StreamFn being called (performance.now), i.e. after the media wrapper read the attachment; the model answers at once, the next turn starts when the gateway is idle",
      "cold: fetch through the channel, sha256, blob + source written to the disk cache, sniff, sharp resize to 1568 px (JPEG q85), derived file written, base64; warm: source + derived file read from the disk cache, base64",
      "added = the row's percentile minus the text-only row's; downloads = fetchAttachment calls during the timed turns",
    ],
  };
}

/** Table 2: memory during a burst of photos against the extension's cap. */
export function photoBurstTable(results: readonly PhotoBurstResult[]): ReportTable {
  const first = results[0];
  return {
    title: `Media: ${first?.chats ?? 0} chats send a ${formatNumber((first?.photoBytes ?? 0) / MB, 1)} MB photo at once, maxBytesInMemory ${formatNumber((first?.capBytes ?? 0) / MIB, 0)} MiB`,
    headers: [
      "turns at once",
      "held peak MiB",
      "cap MiB",
      "held ≤ cap",
      "RSS growth MiB",
      "heapUsed growth MiB",
      "external growth MiB",
      "wall ms (last model call)",
    ],
    rows: results.map((result) => [
      result.maxConcurrentTurns === result.chats
        ? `${result.maxConcurrentTurns} (one per chat)`
        : `${result.maxConcurrentTurns}${result.maxConcurrentTurns === 8 ? " (gateway default)" : ""}`,
      formatNumber(result.heldPeakBytes / MIB, 1),
      formatNumber(result.capBytes / MIB, 1),
      result.heldPeakBytes <= result.capBytes ? "yes" : "NO",
      formatNumber(result.rssGrowthBytes / MIB, 1),
      formatNumber(result.heapUsedGrowthBytes / MIB, 1),
      formatNumber(result.externalGrowthBytes / MIB, 1),
      formatNumber(result.wallMs, 0),
    ]),
    notes: [
      "every chat a new DM with a distinct photo, all delivered in the same tick into a fresh gateway (SQLite) and an empty cache; one text turn first",
      "held peak: the media extension's ByteBudget (memory.peak) — attachment bytes reserved at once (declared sizes), reserved before reading and given back when the model call ends",
      `the cap lets ${
        first === undefined ? 0 : Math.floor(first.capBytes / first.photoBytes)
      } calls read a photo at once; the others wait for its bytes in arrival order (with one turn per chat the cap alone bounds it)`,
      `RSS / heapUsed / external growth: the highest process.memoryUsage() sample (every 10 ms) minus the sample just before the burst (after a forced collection); ${
        first === undefined
          ? ""
          : `RSS before ≈ ${formatNumber(first.rssBeforeBytes / MIB, 0)} MiB, the photos already in the TestChannel`
      }`,
      "wall: from the first delivery to the last chat's model call (the model answers at once)",
    ],
  };
}

/** `pnpm bench media`: what reading photos adds to a turn, and memory under a burst of photos (issue #32 item 7). */
export const mediaSuite: BenchSuite = {
  name: "media",
  description: "photos through the media extension: delivery → model call cold/warm vs text, and memory of a burst",
  async run(progress, flags) {
    const options = mediaOptions(flags);
    const needed = Math.max(
      options.tables.includes("turns") ? options.warmup + options.turns : 0,
      options.tables.includes("burst") ? options.chats : 0,
    );
    progress(`making ${needed} distinct ${TWO_MB_PHOTO.width}×${TWO_MB_PHOTO.height} noise JPEGs`);
    const photos = await noisePhotos(needed);
    const tables: ReportTable[] = [];
    if (options.tables.includes("turns")) {
      progress(`photo turns: ${options.warmup} warm-up + ${options.turns} timed rounds of text / cold / warm`);
      const result = await measurePhotoTurns({ turns: options.turns, warmupTurns: options.warmup, photos });
      for (const row of result.rows)
        progress(`  ${row.kind}: p50 ${row.p50Ms.toFixed(1)} ms, p95 ${row.p95Ms.toFixed(1)} ms`);
      tables.push(photoTurnsTable(result, options.warmup));
    }
    if (options.tables.includes("burst")) {
      const results: PhotoBurstResult[] = [];
      for (const limit of BURST_TURN_LIMITS) {
        const maxConcurrentTurns = limit ?? options.chats;
        progress(`burst: ${options.chats} chats, ${maxConcurrentTurns} turns at once, cap ${options.capMb} MiB`);
        const result = await measurePhotoBurst({
          chats: options.chats,
          maxBytesInMemory: options.capMb * MIB,
          maxConcurrentTurns,
          photos,
        });
        progress(`  held peak ${(result.heldPeakBytes / MIB).toFixed(1)} MiB, wall ${result.wallMs.toFixed(0)} ms`);
        results.push(result);
      }
      tables.push(photoBurstTable(results));
    }
    return { suite: "media", tables };
  },
};
