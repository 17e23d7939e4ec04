import type { TranscriptionConfig } from "../config/media-config.js";

/** A transcription that failed: the endpoint refused, was unreachable or too slow. */
export class TranscriptionError extends Error {
  override readonly name = "TranscriptionError";
}

/**
 * The text of a voice note or audio file from an OpenAI-compatible `POST {baseUrl}/audio/transcriptions` (OpenAI,
 * Groq, a local whisper server). Contract: resolves with the trimmed text; rejects with TranscriptionError (never
 * with the API key in its message).
 */
export async function transcribeAudio(
  bytes: Uint8Array,
  file: { readonly name: string; readonly mimeType: string },
  config: TranscriptionConfig,
  signal?: AbortSignal,
): Promise<string> {
  const form = new FormData();
  const type = file.mimeType === "application/ogg" ? "audio/ogg" : file.mimeType;
  form.append("file", new Blob([bytes], { type }), uploadName(file.name, type));
  form.append("model", config.model);
  form.append("response_format", "json");
  const url = `${config.baseUrl.replace(/\/+$/, "")}/audio/transcriptions`;
  const timeout = AbortSignal.timeout(config.timeoutMs);
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      body: form,
      headers: config.apiKey === undefined ? {} : { authorization: `Bearer ${config.apiKey}` },
      signal: signal === undefined ? timeout : AbortSignal.any([signal, timeout]),
    });
  } catch (error) {
    throw new TranscriptionError(`the transcription service could not be reached (${(error as Error).name})`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new TranscriptionError(`the transcription service answered ${response.status}`);
  }
  const body = (await response.json().catch(() => undefined)) as { text?: unknown } | undefined;
  if (typeof body?.text !== "string") throw new TranscriptionError("the transcription service gave no text");
  return body.text.trim();
}

/** Extensions the transcription APIs judge a file by (OpenAI refuses a name without one it knows). */
const AUDIO_EXTENSIONS: Record<string, string> = {
  "audio/ogg": "ogg",
  "audio/opus": "ogg",
  "audio/mpeg": "mp3",
  "audio/mp4": "m4a",
  "audio/x-m4a": "m4a",
  "audio/aac": "m4a",
  "audio/wav": "wav",
  "audio/x-wav": "wav",
  "audio/webm": "webm",
  "audio/flac": "flac",
  "audio/x-flac": "flac",
};

/** The file's name with the extension its sniffed type has (a Telegram voice note may be named just "voice"). */
function uploadName(name: string, mimeType: string): string {
  const extension = AUDIO_EXTENSIONS[mimeType];
  if (extension === undefined) return name;
  const known = new Set(Object.values(AUDIO_EXTENSIONS));
  const current = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  return current !== undefined && known.has(current) ? name : `${name.replace(/\.[^.]*$/, "")}.${extension}`;
}
