import OpenAI, { toFile } from "openai";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { type FakeLlmServer, type FakeTranscription, startFakeOpenAI, transcriptionUploads } from "../src/llm/index.js";
import { clearLlmEnv } from "./llm-env.js";

let fake: FakeLlmServer | undefined;
beforeAll(() => clearLlmEnv());
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

// An Ogg/Opus voice note's first bytes: what a Telegram voice message uploads.
const voice = Buffer.concat([Buffer.from("OggS"), Buffer.alloc(60, 7)]);

function upload(
  fields: Record<string, string>,
  file?: { bytes: Buffer; name: string; type?: string },
  headers: Record<string, string> = {},
): Promise<Response> {
  const form = new FormData();
  if (file) form.set("file", new Blob([file.bytes], { type: file.type ?? "audio/ogg" }), file.name);
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  return fetch(`${fake!.url}/audio/transcriptions`, { method: "POST", body: form, headers });
}

describe("fake OpenAI POST /v1/audio/transcriptions", () => {
  it("answers the scripted text as JSON and records the upload: name, bytes, model, language", async () => {
    const transcriptions: FakeTranscription[] = [];
    fake = await startFakeOpenAI({ transcriptions });
    // The fake keeps the very array: a test scripts answers whenever it likes.
    transcriptions.push("hello from the voice note");
    const res = await upload({ model: "gpt-4o-mini-transcribe", language: "en" }, { bytes: voice, name: "voice.oga" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(await res.json()).toEqual({ text: "hello from the voice note" });
    expect(transcriptionUploads(fake)).toHaveLength(1);
    const recorded = transcriptionUploads(fake)[0]!;
    expect(recorded).toMatchObject({
      name: "voice.oga",
      contentType: "audio/ogg",
      model: "gpt-4o-mini-transcribe",
      language: "en",
      responseFormat: "json",
    });
    expect(recorded.bytes.equals(voice)).toBe(true);
    // The raw request is recorded too, its text fields as the body and its file in `files`.
    expect(fake.requests[0]).toMatchObject({
      path: "/v1/audio/transcriptions",
      body: { model: "gpt-4o-mini-transcribe", language: "en" },
    });
    expect(fake.requests[0]!.files?.map((file) => [file.field, file.name, file.bytes.length])).toEqual([
      ["file", "voice.oga", voice.length],
    ]);
    expect(transcriptions).toHaveLength(0);
  });

  it("answers in order, from a function of the upload, and as bare text for response_format=text", async () => {
    fake = await startFakeOpenAI({
      transcriptions: ["first", (heard) => `${heard.bytes.length} bytes of ${heard.name}`],
    });
    expect(await (await upload({ model: "whisper-1" }, { bytes: voice, name: "a.ogg" })).json()).toEqual({
      text: "first",
    });
    const res = await upload({ model: "whisper-1", response_format: "text" }, { bytes: voice, name: "b.mp3" });
    expect(res.headers.get("content-type")).toContain("text/plain");
    expect(await res.text()).toBe(`${voice.length} bytes of b.mp3`);
  });

  it("falls back to `transcribe`, and says so with a 500 when nothing was scripted", async () => {
    fake = await startFakeOpenAI({ transcribe: (heard) => `default for ${heard.model}` });
    expect(await (await upload({ model: "whisper-1" }, { bytes: voice, name: "a.wav" })).json()).toEqual({
      text: "default for whisper-1",
    });
    await fake.close();
    fake = await startFakeOpenAI();
    const res = await upload({ model: "whisper-1" }, { bytes: voice, name: "a.wav" });
    expect(res.status).toBe(500);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain("no transcription queued");
  });

  it("refuses a missing file, a missing model and an audio format the API does not take with a 400", async () => {
    const transcriptions: FakeTranscription[] = ["never used"];
    fake = await startFakeOpenAI({ transcriptions });
    const noFile = await upload({ model: "whisper-1" });
    expect(noFile.status).toBe(400);
    expect(await noFile.json()).toMatchObject({ error: { type: "invalid_request_error" } });
    const noModel = await upload({}, { bytes: voice, name: "a.ogg" });
    expect(noModel.status).toBe(400);
    expect(await noModel.json()).toMatchObject({ error: { message: "you must provide a model parameter" } });
    const badFormat = await upload({ model: "whisper-1" }, { bytes: voice, name: "voice" });
    expect(badFormat.status).toBe(400);
    expect(((await badFormat.json()) as { error: { message: string } }).error.message).toMatch(
      /^Invalid file format\. Supported formats: \['flac', 'm4a', 'mp3'/,
    );
    expect(transcriptions).toEqual(["never used"]);
    // A request refused before its file was read is no upload; one refused for its format was read.
    expect(transcriptionUploads(fake).map((upload) => upload.name)).toEqual(["voice"]);
  });

  it("requires `Authorization: Bearer <key>` when started with one (a 401 otherwise, as OpenAI answers)", async () => {
    fake = await startFakeOpenAI({ apiKey: "sk-right-key-1234", transcriptions: ["authorised"] });
    const none = await upload({ model: "whisper-1" }, { bytes: voice, name: "a.ogg" });
    expect(none.status).toBe(401);
    expect(((await none.json()) as { error: { message: string } }).error.message).toMatch(
      /^You didn't provide an API key/,
    );
    const wrong = await upload(
      { model: "whisper-1" },
      { bytes: voice, name: "a.ogg" },
      { authorization: "Bearer sk-wrong-key-9999" },
    );
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ error: { code: "invalid_api_key" } });
    expect(transcriptionUploads(fake)).toEqual([]);
    const right = await upload(
      { model: "whisper-1" },
      { bytes: voice, name: "a.ogg" },
      { authorization: "Bearer sk-right-key-1234" },
    );
    expect(await right.json()).toEqual({ text: "authorised" });
  });

  it("answers a queued HTTP fault as the API's error", async () => {
    fake = await startFakeOpenAI({ transcriptions: [{ type: "rate_limit", retryAfterSeconds: 2 }] });
    const res = await upload({ model: "whisper-1" }, { bytes: voice, name: "a.ogg" });
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("2");
  });

  it("serves the official SDK's audio.transcriptions.create", async () => {
    fake = await startFakeOpenAI({
      apiKey: "sk-test",
      transcriptions: [(heard) => (heard.bytes.equals(voice) ? "same bytes" : "other bytes")],
    });
    const client = new OpenAI({ baseURL: fake.url, apiKey: "sk-test", maxRetries: 0 });
    const result = await client.audio.transcriptions.create({
      file: await toFile(voice, "voice.ogg", { type: "audio/ogg" }),
      model: "gpt-4o-transcribe",
    });
    expect(result.text).toBe("same bytes");
    expect(transcriptionUploads(fake)[0]).toMatchObject({ name: "voice.ogg", model: "gpt-4o-transcribe" });
  });
});
