import { z } from "zod";

const MB = 1024 * 1024;

/** An OpenAI-compatible `/v1/audio/transcriptions` endpoint (OpenAI, Groq, a local whisper server). */
export const transcriptionConfigSchema = z.strictObject({
  /** The API root, e.g. `https://api.openai.com/v1` or `http://127.0.0.1:9000/v1`. */
  baseUrl: z.url("media.transcription.baseUrl must be a URL such as https://api.openai.com/v1"),
  apiKey: z.string().min(1).optional(),
  model: z.string().min(1).default("whisper-1"),
  /** Give up on one transcription after this long. */
  timeoutMs: z.int().min(1000).max(600_000).default(120_000),
});

/** Limits on what one message may bring in and what the agent may send. */
export const mediaLimitsSchema = z.strictObject({
  /** The largest file read, in bytes (declared sizes over it are not downloaded at all). Default 20 MB. */
  maxFileBytes: z
    .int()
    .min(1024)
    .max(2 * 1024 * MB)
    .default(20 * MB),
  /** Files of one message the agent reads; the rest are listed as not read. Default 10. */
  maxFilesPerMessage: z.int().min(1).max(100).default(10),
  /** Images with more pixels than this are refused before decoding (a decompression bomb). Default 50 million. */
  maxImagePixels: z.int().min(1).max(1_000_000_000).default(50_000_000),
  /** The longest edge an image is given to the model at; larger ones are resized. Default 1568 (Anthropic's advice). */
  maxImageEdge: z.int().min(64).max(8000).default(1568),
  /** The largest file `send_file` sends, in bytes (each platform's own limit applies too). Default 20 MB. */
  maxSendBytes: z
    .int()
    .min(1)
    .max(2 * 1024 * MB)
    .default(20 * MB),
  /** Characters of a document's or text file's text the model is given; the rest is cut with a note. */
  maxTextChars: z.int().min(1000).max(2_000_000).default(100_000),
});

const agentMediaSchema = z.strictObject({
  limits: mediaLimitsSchema.partial().optional(),
  /** This agent's transcription endpoint, or `false` for none. */
  transcription: z.union([transcriptionConfigSchema, z.literal(false)]).optional(),
});

/**
 * `media:` in chorus.config.yaml: limits, transcription, the cache of downloaded files, and per-agent overrides.
 * @example media: { transcription: { baseUrl: "http://127.0.0.1:9000/v1" }, limits: { maxFileBytes: 10485760 } }
 */
export const mediaConfigSchema = z.strictObject({
  limits: mediaLimitsSchema.prefault({}),
  transcription: transcriptionConfigSchema.optional(),
  /** Bytes of downloaded files kept on disk (`<dataDir>/media-cache`); the least recently used go first. Default 1 GB. */
  cacheMaxBytes: z
    .int()
    .min(MB)
    .default(1024 * MB),
  /**
   * Attachment bytes the process holds in memory at once (downloads, resizes, requests being built); a turn that
   * would go over waits for another to finish. Default 64 MB.
   */
  maxBytesInMemory: z
    .int()
    .min(MB)
    .default(64 * MB),
  /** Per-agent overrides, by agent id. */
  agents: z.record(z.string(), agentMediaSchema).default({}),
});

export type MediaConfig = z.output<typeof mediaConfigSchema>;
export type MediaLimits = z.output<typeof mediaLimitsSchema>;
export type TranscriptionConfig = z.output<typeof transcriptionConfigSchema>;

/** What applies to one agent: its limits and transcription after its overrides. */
export interface AgentMedia {
  readonly limits: MediaLimits;
  readonly transcription: TranscriptionConfig | undefined;
}

/** The media settings of one agent. Contract: pure; an agent without overrides gets the top-level settings. */
export function agentMedia(config: MediaConfig, agentId: string): AgentMedia {
  const own = config.agents[agentId];
  const limits: MediaLimits = { ...config.limits, ...stripUndefined(own?.limits ?? {}) };
  const transcription = own?.transcription === false ? undefined : (own?.transcription ?? config.transcription);
  return { limits, transcription };
}

function stripUndefined(value: Partial<Record<keyof MediaLimits, number | undefined>>): Partial<MediaLimits> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<MediaLimits>;
}
