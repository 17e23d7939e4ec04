import { createHash, randomFillSync } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Message, StreamContext, StreamFn, StreamOptions } from "@chorus/core";
import { fakeModel, scriptedStreamFn } from "@chorus/core/testing";
import { type MediaExtension, mediaExtension } from "@chorus/extension-media";
import { GATEWAY_DEFAULTS, Gateway, type InboundMessage, TestChannel } from "@chorus/gateway";
import { SqliteSessionStore } from "@chorus/store-sqlite";
import sharp from "sharp";
import { canForceGc, forceGc } from "./gc.js";
import { percentile } from "./stats.js";

/** The photos' size: a random-noise JPEG, which compresses about as badly as a phone photo of a busy scene. */
export interface PhotoSpec {
  readonly width: number;
  readonly height: number;
  readonly quality: number;
}

/** 2400 × 1800 noise around mid-grey at quality 90: ≈ 2 MB, larger than the 1568 px edge, so it is resized. */
export const TWO_MB_PHOTO: PhotoSpec = { width: 2400, height: 1800, quality: 90 };
/** How far the noise strays from mid-grey (of 256): sets the JPEG's size. */
const NOISE_AMPLITUDE = 70;
const BASE_IMAGES = 4;

/**
 * `count` distinct JPEGs: a few noise images, each next photo of one flipped at one more pixel, so every photo's
 * bytes (and hash) differ while all cost the same to decode and resize. Contract: resolves with `count` photos whose
 * sha256s are all different.
 */
export async function noisePhotos(count: number, spec: PhotoSpec = TWO_MB_PHOTO): Promise<Uint8Array[]> {
  const bases = Array.from({ length: Math.min(BASE_IMAGES, count) }, () => {
    const raw = Buffer.alloc(spec.width * spec.height * 3);
    randomFillSync(raw);
    for (let i = 0; i < raw.length; i++) raw[i] = 128 - NOISE_AMPLITUDE / 2 + ((raw[i] as number) % NOISE_AMPLITUDE);
    return raw;
  });
  const photos: Uint8Array[] = [];
  const hashes = new Set<string>();
  for (let i = 0; photos.length < count; i++) {
    const raw = bases[i % bases.length] as Buffer;
    // One more pixel of this base flipped (they add up: no two photos of one base are alike).
    const pixel = (Math.floor(i / bases.length) * 7919) % (spec.width * spec.height);
    raw[pixel * 3] = 255 - (raw[pixel * 3] as number);
    const jpeg = await sharp(raw, { raw: { width: spec.width, height: spec.height, channels: 3 } })
      .jpeg({ quality: spec.quality })
      .toBuffer();
    const hash = createHash("sha256").update(jpeg).digest("hex");
    if (hashes.has(hash)) continue;
    hashes.add(hash);
    photos.push(new Uint8Array(jpeg.buffer, jpeg.byteOffset, jpeg.byteLength));
  }
  return photos;
}

/** One model call of a turn, as the recording StreamFn saw it. */
interface ModelCallSeen {
  readonly at: number;
  readonly images: number;
}

/** The text of the last user message and how many images it holds (what the model is sent for this turn). */
function lastUserMessage(messages: readonly Message[]): { text: string; images: number } {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i] as Message;
    if (message.role !== "user") continue;
    if (typeof message.content === "string") return { text: message.content, images: 0 };
    let text = "";
    let images = 0;
    for (const part of message.content) {
      if (part.type === "text") text += `${part.text}\n`;
      else if (part.type === "image") images++;
    }
    return { text, images };
  }
  return { text: "", images: 0 };
}

const MARKER = /\bbench-turn-(\d+)\b/;
/** The marker of the burst's text turn before the burst (no chat of a burst has it). */
const WARM_UP_MARKER = 999_999;

/** A gateway with the media extension on a TestChannel, a SQLite store and a model that answers at once. */
interface MediaBenchGateway {
  readonly channel: TestChannel;
  readonly media: MediaExtension;
  readonly gateway: Gateway;
  /** Resolves with the turn's model call once the model is called with the message marked `marker`. */
  modelCalled(marker: number): Promise<ModelCallSeen>;
  /** Delivers a DM from `sender` marked `marker`, with `photo` (a file id added with addFile) attached. */
  inject(sender: string, marker: number, photo?: { id: string; sizeBytes: number }): Promise<InboundMessage>;
  close(): Promise<void>;
}

async function startMediaGateway(options: {
  maxBytesInMemory?: number;
  maxConcurrentTurns?: number;
}): Promise<MediaBenchGateway> {
  const dir = await mkdtemp(join(tmpdir(), "chorus-bench-media-"));
  const store = SqliteSessionStore.open({ path: join(dir, "sessions.db") });
  const channel = new TestChannel({ id: "bench", accountId: "main" });
  const media = mediaExtension({
    dir: join(dir, "media"),
    ...(options.maxBytesInMemory === undefined ? {} : { config: { maxBytesInMemory: options.maxBytesInMemory } }),
  });
  const model = fakeModel({ id: "vision-model" });
  const waiting = new Map<number, (call: ModelCallSeen) => void>();
  const seen = new Map<number, ModelCallSeen>();
  const scripted = scriptedStreamFn(() => "ok");
  const streamFn: StreamFn = (callModel, context: StreamContext, callOptions?: StreamOptions) => {
    const at = performance.now();
    if (callOptions?.purpose === undefined) {
      const { text, images } = lastUserMessage(context.messages);
      const marker = Number(MARKER.exec(text)?.[1] ?? Number.NaN);
      if (!Number.isNaN(marker)) {
        const call = { at, images };
        const resolve = waiting.get(marker);
        if (resolve === undefined) seen.set(marker, call);
        else {
          waiting.delete(marker);
          resolve(call);
        }
      }
    }
    const stream = scripted(callModel, context, callOptions);
    // The scripted model keeps every context it was sent; the bench must not hold the photos.
    scripted.calls.length = 0;
    return stream;
  };
  const gateway = new Gateway({
    config: { agents: [{ id: "main", model: model.id }], channels: [{ channel: channel.id, dmPolicy: "open" }] },
    store,
    channels: [channel],
    streamFn,
    models: { find: (id: string) => (id === model.id ? model : undefined), list: () => [model] },
    extensions: [media],
    replyMode: "block",
    rateCap: false,
    titles: false,
    ...(options.maxConcurrentTurns === undefined ? {} : { maxConcurrentTurns: options.maxConcurrentTurns }),
  });
  await gateway.start();
  return {
    channel,
    media,
    gateway,
    modelCalled(marker) {
      const call = seen.get(marker);
      if (call !== undefined) {
        seen.delete(marker);
        return Promise.resolve(call);
      }
      return new Promise((resolve) => waiting.set(marker, resolve));
    },
    inject(sender, marker, photo) {
      return channel.inject({
        chatType: "dm",
        sender: { id: sender, name: sender },
        text: photo === undefined ? `hello bench-turn-${marker}` : `what is in this photo? bench-turn-${marker}`,
        attachments:
          photo === undefined
            ? []
            : [{ id: photo.id, name: `${photo.id}.jpg`, kind: "image", sizeBytes: photo.sizeBytes }],
      });
    },
    async close() {
      await gateway.stop(0);
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The rows of the photo-per-turn table. */
export type PhotoTurnKind = "text" | "cold" | "warm";

/** Delivery → model call of one kind of turn. */
export interface PhotoTurnRow {
  readonly kind: PhotoTurnKind;
  readonly samples: number;
  readonly p50Ms: number;
  readonly p95Ms: number;
  readonly maxMs: number;
  /** Downloads through the channel these turns made (cold: one each; warm: none). */
  readonly fetches: number;
}

export interface PhotoTurnsResult {
  readonly rows: readonly PhotoTurnRow[];
  /** Mean size of the photos sent, bytes. */
  readonly photoBytes: number;
}

export interface PhotoTurnsOptions {
  /** Timed turns of each kind. */
  readonly turns: number;
  /** Untimed rounds first (sharp's first load, the JIT, SQLite's first pages). */
  readonly warmupTurns: number;
  readonly photo?: PhotoSpec;
  /** Photos to use (at least warmupTurns + turns distinct ones); made with `noisePhotos` when absent. */
  readonly photos?: readonly Uint8Array[];
}

/**
 * Rounds of three turns, one at a time, each in a new DM chat (a new session, so its context holds one photo at
 * most): a text-only message; a message with a photo never seen (downloaded, sniffed, resized, cached); a message
 * referencing the photo the round's cold turn sent (its resized image read from the disk cache). Per turn: the time
 * from the TestChannel delivering the message to the model being called with it (inside the media wrapper: after
 * the attachment was read). The next turn starts when the gateway is idle.
 * Contract: throws when a photo turn's model call holds no image or a text turn's holds one.
 */
export async function measurePhotoTurns(options: PhotoTurnsOptions): Promise<PhotoTurnsResult> {
  const rounds = options.warmupTurns + options.turns;
  const photos = options.photos ?? (await noisePhotos(rounds, options.photo));
  if (photos.length < rounds) throw new Error(`measurePhotoTurns needs ${rounds} photos, got ${photos.length}`);
  const bench = await startMediaGateway({});
  const samples: Record<PhotoTurnKind, number[]> = { text: [], cold: [], warm: [] };
  const fetches: Record<PhotoTurnKind, number> = { text: 0, cold: 0, warm: 0 };
  let marker = 0;
  try {
    for (let round = 0; round < rounds; round++) {
      const photo = photos[round] as Uint8Array;
      const file = { id: `photo-${round}`, sizeBytes: photo.byteLength };
      bench.channel.addFile(file.id, photo, "image/jpeg");
      for (const kind of ["text", "cold", "warm"] as const) {
        const turn = marker++;
        const fetchesBefore = bench.channel.fetches.length;
        const called = bench.modelCalled(turn);
        const started = performance.now();
        await bench.inject(`${kind}-${round}`, turn, kind === "text" ? undefined : file);
        const call = await called;
        await bench.gateway.idle();
        if (call.images !== (kind === "text" ? 0 : 1)) {
          throw new Error(`${kind} turn ${round}: the model was sent ${call.images} images`);
        }
        if (round < options.warmupTurns) continue;
        samples[kind].push(call.at - started);
        fetches[kind] += bench.channel.fetches.length - fetchesBefore;
      }
    }
  } finally {
    await bench.close();
  }
  const used = photos.slice(0, rounds);
  return {
    rows: (["text", "cold", "warm"] as const).map((kind) => {
      const sorted = samples[kind].sort((a, b) => a - b);
      return {
        kind,
        samples: sorted.length,
        p50Ms: percentile(sorted, 0.5),
        p95Ms: percentile(sorted, 0.95),
        maxMs: sorted.at(-1) ?? 0,
        fetches: fetches[kind],
      };
    }),
    photoBytes: used.reduce((sum, photo) => sum + photo.byteLength, 0) / used.length,
  };
}

export interface PhotoBurstOptions {
  readonly chats: number;
  readonly maxBytesInMemory: number;
  /** The gateway's turns at once (its default is 8). */
  readonly maxConcurrentTurns?: number;
  readonly photo?: PhotoSpec;
  /** Photos to use (at least `chats` distinct ones); made with `noisePhotos` when absent. */
  readonly photos?: readonly Uint8Array[];
  /** How often process memory is sampled during the burst. Default 10 ms. */
  readonly sampleEveryMs?: number;
}

export interface PhotoBurstResult {
  readonly chats: number;
  readonly maxConcurrentTurns: number;
  /** Mean size of the photos sent, bytes. */
  readonly photoBytes: number;
  /** The media extension's accounting: most attachment bytes reserved at once, and its cap. */
  readonly heldPeakBytes: number;
  readonly capBytes: number;
  /** Growth over the value just before the burst (after a forced collection when available) of the peak sample. */
  readonly rssGrowthBytes: number;
  readonly heapUsedGrowthBytes: number;
  readonly externalGrowthBytes: number;
  readonly rssBeforeBytes: number;
  readonly samples: number;
  /** From the first delivery to the last of the `chats` model calls. */
  readonly wallMs: number;
}

/**
 * `chats` DMs each deliver a distinct photo at once (all injected in the same tick) into a gateway whose media
 * extension has `maxBytesInMemory`; `process.memoryUsage()` is sampled every `sampleEveryMs` until every chat's model
 * call was made. Contract: throws when a model call holds no image.
 */
export async function measurePhotoBurst(options: PhotoBurstOptions): Promise<PhotoBurstResult> {
  const photos = options.photos ?? (await noisePhotos(options.chats, options.photo));
  if (photos.length < options.chats) throw new Error(`measurePhotoBurst needs ${options.chats} photos`);
  const bench = await startMediaGateway({
    maxBytesInMemory: options.maxBytesInMemory,
    ...(options.maxConcurrentTurns === undefined ? {} : { maxConcurrentTurns: options.maxConcurrentTurns }),
  });
  try {
    const files = photos.slice(0, options.chats).map((photo, i) => {
      const file = { id: `burst-${i}`, sizeBytes: photo.byteLength };
      bench.channel.addFile(file.id, photo, "image/jpeg");
      return file;
    });
    // One text turn first: the gateway's and the store's first-use costs are not the burst's.
    const warm = bench.modelCalled(WARM_UP_MARKER);
    await bench.inject("warm-up", WARM_UP_MARKER);
    await warm;
    await bench.gateway.idle();
    if (canForceGc()) forceGc();
    const before = process.memoryUsage();
    const peak = { rss: before.rss, heapUsed: before.heapUsed, external: before.external };
    let samples = 0;
    const sample = () => {
      const now = process.memoryUsage();
      samples++;
      peak.rss = Math.max(peak.rss, now.rss);
      peak.heapUsed = Math.max(peak.heapUsed, now.heapUsed);
      peak.external = Math.max(peak.external, now.external);
    };
    const sampler = setInterval(sample, options.sampleEveryMs ?? 10);
    const started = performance.now();
    let wallMs = 0;
    try {
      const calls = files.map((_, i) => bench.modelCalled(i));
      await Promise.all(files.map((file, i) => bench.inject(`burst-${i}`, i, file)));
      const seen = await Promise.all(calls);
      wallMs = Math.max(...seen.map((call) => call.at)) - started;
      const blind = seen.findIndex((call) => call.images !== 1);
      if (blind >= 0) throw new Error(`burst chat ${blind}: the model was sent ${seen[blind]?.images} images`);
      await bench.gateway.idle();
      sample();
    } finally {
      clearInterval(sampler);
    }
    return {
      chats: options.chats,
      maxConcurrentTurns: options.maxConcurrentTurns ?? GATEWAY_DEFAULTS.maxConcurrentTurns,
      photoBytes: files.reduce((sum, file) => sum + file.sizeBytes, 0) / files.length,
      heldPeakBytes: bench.media.memory.peak,
      capBytes: bench.media.memory.cap,
      rssGrowthBytes: peak.rss - before.rss,
      heapUsedGrowthBytes: peak.heapUsed - before.heapUsed,
      externalGrowthBytes: peak.external - before.external,
      rssBeforeBytes: before.rss,
      samples,
      wallMs,
    };
  } finally {
    await bench.close();
  }
}
