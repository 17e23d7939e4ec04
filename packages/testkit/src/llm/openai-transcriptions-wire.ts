import type { FakeJsonRoute, RecordedLlmRequest } from "./fake-llm-server.js";
import { openAIErrorResponse } from "./openai-errors.js";
import type { FakeHttpFault } from "./script.js";

/** One audio upload the fake transcribed (or refused after reading it). */
export interface RecordedTranscription {
  /** The uploaded file's name, as the client gave it (`voice.ogg`). */
  name: string;
  /** The file part's Content-Type, when the client gave one. */
  contentType?: string;
  bytes: Buffer;
  model: string;
  language?: string;
  prompt?: string;
  /** `json` when the client named none. */
  responseFormat: string;
}

/**
 * What the fake answers one transcription with: the text, a function of the upload that writes it, or an HTTP fault
 * (`{ type: "rate_limit" }`, …) answered as the real API's error.
 */
export type FakeTranscription = string | FakeHttpFault | ((upload: RecordedTranscription) => string | FakeHttpFault);

/** The formats the real API takes; `srt` and `vtt` are refused by this fake, which has no timings to give. */
const FORMATS = new Set(["json", "text", "verbose_json"]);
/** The extensions the real API accepts, in its own error's words. */
const EXTENSIONS = ["flac", "m4a", "mp3", "mp4", "mpeg", "mpga", "oga", "ogg", "wav", "webm"];
/** The real API's upload limit: 25 MB. */
const MAX_BYTES = 26_214_400;

/** The upload each transcription request carried, once the endpoint read it (see `transcriptionUploads`). */
const read = new WeakMap<RecordedLlmRequest, RecordedTranscription>();

/**
 * The audio uploads a fake OpenAI's transcription endpoint read, in order: file name, bytes, model, language, format
 * (a request refused before reading its file — no file, no model, a wrong key — is not among them).
 * @example expect(transcriptionUploads(fake)[0]).toMatchObject({ name: "voice.oga", model: "whisper-1" });
 */
export function transcriptionUploads(server: {
  readonly requests: readonly RecordedLlmRequest[];
}): RecordedTranscription[] {
  return server.requests.flatMap((request) => read.get(request) ?? []);
}

const invalid = (status: number, message: string, param: string | null = null) => ({
  status,
  headers: { "x-request-id": "req_fake" },
  body: { error: { message, type: "invalid_request_error", param, code: null } },
});

/**
 * `POST /v1/audio/transcriptions` as OpenAI answers it: multipart with `file`, `model`, optional `language`, `prompt`
 * and `response_format` (`json` → `{ text }`, `text` → the bare text, `verbose_json` → `{ task, language, duration,
 * text, segments }`). The text comes from `queue` (each request consumes one answer, in order), else from `fallback`,
 * else the request gets a 500 saying nothing was scripted. A missing file or model, a file whose extension the real
 * API refuses, or one over 25 MB is the real API's 400 / 413, consuming nothing.
 */
export function openAITranscriptionsRoute(
  queue: FakeTranscription[],
  fallback?: (upload: RecordedTranscription) => string,
): FakeJsonRoute {
  return {
    json(request: RecordedLlmRequest) {
      const file = request.files?.find((upload) => upload.field === "file");
      if (file === undefined) return invalid(400, "1 validation error for Request\nbody -> file\n  field required");
      const field = (name: string) => (typeof request.body[name] === "string" ? (request.body[name] as string) : "");
      if (field("model") === "") return invalid(400, "you must provide a model parameter", "model");
      const responseFormat = field("response_format") || "json";
      const upload: RecordedTranscription = {
        name: file.name,
        ...(file.contentType === undefined ? {} : { contentType: file.contentType }),
        bytes: file.bytes,
        model: field("model"),
        ...(field("language") === "" ? {} : { language: field("language") }),
        ...(field("prompt") === "" ? {} : { prompt: field("prompt") }),
        responseFormat,
      };
      read.set(request, upload);
      const extension = /\.([^.]+)$/.exec(file.name)?.[1]?.toLowerCase() ?? "";
      if (!EXTENSIONS.includes(extension)) {
        return invalid(400, `Invalid file format. Supported formats: [${EXTENSIONS.map((e) => `'${e}'`).join(", ")}]`);
      }
      if (file.bytes.length > MAX_BYTES) {
        return invalid(413, `Maximum content size limit (${MAX_BYTES}) exceeded (${file.bytes.length} bytes read)`);
      }
      if (!FORMATS.has(responseFormat)) {
        return invalid(
          400,
          `response_format '${responseFormat}' is not supported by the fake (json, text, verbose_json)`,
        );
      }
      const next = queue.shift();
      const answer = typeof next === "function" ? next(upload) : (next ?? fallback?.(upload));
      if (answer === undefined) {
        return invalid(
          500,
          "fake OpenAI server: no transcription queued for this request (push one to transcriptions)",
        );
      }
      if (typeof answer !== "string") return openAIErrorResponse(answer, "chat");
      if (responseFormat === "text") {
        return { status: 200, body: answer, headers: { "content-type": "text/plain; charset=utf-8" } };
      }
      if (responseFormat === "verbose_json") {
        return {
          status: 200,
          body: { task: "transcribe", language: upload.language ?? "english", duration: 0, text: answer, segments: [] },
        };
      }
      return { status: 200, body: { text: answer } };
    },
  };
}
