import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { type FakeLlmScript, type FakeLlmServer, startFakeAnthropic, startFakeOpenAI } from "../src/llm/index.js";
import { clearLlmEnv } from "./llm-env.js";

let fake: FakeLlmServer;
beforeAll(() => clearLlmEnv());
afterEach(async () => fake?.close());

async function viaAnthropic(script: FakeLlmScript): Promise<unknown> {
  fake = await startFakeAnthropic();
  fake.enqueue(script);
  const client = new Anthropic({ baseURL: fake.url, apiKey: "k", maxRetries: 0 });
  return client.messages
    .stream({ model: "claude-sonnet-4-6", max_tokens: 100, messages: [{ role: "user", content: "hi" }] })
    .finalMessage()
    .then(
      () => "no error",
      (error: unknown) => error,
    );
}

async function viaOpenAI(script: FakeLlmScript, api: "chat" | "responses"): Promise<unknown> {
  fake = await startFakeOpenAI();
  fake.enqueue(script);
  const client = new OpenAI({ baseURL: fake.url, apiKey: "k", maxRetries: 0 });
  const run =
    api === "chat"
      ? client.chat.completions
          .stream({ model: "gpt-4o", messages: [{ role: "user", content: "hi" }] })
          .finalChatCompletion()
      : client.responses.stream({ model: "gpt-5", input: "hi" }).finalResponse();
  return run.then(
    () => "no error",
    (error: unknown) => error,
  );
}

describe("HTTP faults reach the SDKs as the real APIs' errors", () => {
  it("429 carries retry-after and retry-after-ms on both providers", async () => {
    const a = await viaAnthropic([{ type: "rate_limit", retryAfterSeconds: 7, retryAfterMs: 6500 }]);
    expect(a).toBeInstanceOf(Anthropic.RateLimitError);
    const aHeaders = (a as InstanceType<typeof Anthropic.APIError>).headers;
    expect(aHeaders?.get("retry-after")).toBe("7");
    expect(aHeaders?.get("retry-after-ms")).toBe("6500");
    await fake.close();
    const o = await viaOpenAI([{ type: "rate_limit", retryAfterSeconds: 3 }], "chat");
    expect(o).toBeInstanceOf(OpenAI.RateLimitError);
    expect((o as InstanceType<typeof OpenAI.APIError>).headers?.get("retry-after")).toBe("3");
  });

  it("overloaded is 529 overloaded_error on Anthropic and 503 on OpenAI", async () => {
    const a = (await viaAnthropic([{ type: "overloaded" }])) as InstanceType<typeof Anthropic.APIError>;
    expect(a.status).toBe(529);
    expect(a.message).toContain("overloaded_error");
    await fake.close();
    const o = (await viaOpenAI([{ type: "overloaded" }], "responses")) as InstanceType<typeof OpenAI.APIError>;
    expect(o.status).toBe(503);
  });

  it("500 is an InternalServerError", async () => {
    expect(await viaAnthropic([{ type: "server_error" }])).toBeInstanceOf(Anthropic.InternalServerError);
    await fake.close();
    expect(await viaOpenAI([{ type: "server_error" }], "chat")).toBeInstanceOf(OpenAI.InternalServerError);
  });

  it("context overflow is a 400 with each API's real wording", async () => {
    const a = (await viaAnthropic([{ type: "context_overflow" }])) as Error;
    expect(a).toBeInstanceOf(Anthropic.BadRequestError);
    expect(a.message).toMatch(/prompt is too long: \d+ tokens > \d+ maximum/);
    await fake.close();
    const chat = (await viaOpenAI([{ type: "context_overflow" }], "chat")) as InstanceType<typeof OpenAI.APIError>;
    expect(chat.code).toBe("context_length_exceeded");
    expect(chat.message).toContain("maximum context length");
    await fake.close();
    const resp = (await viaOpenAI([{ type: "context_overflow" }], "responses")) as InstanceType<typeof OpenAI.APIError>;
    expect(resp.message).toContain("exceeds the context window");
  });

  it("auth failure is a 401 AuthenticationError", async () => {
    expect(await viaAnthropic([{ type: "auth_error" }])).toBeInstanceOf(Anthropic.AuthenticationError);
    await fake.close();
    expect(await viaOpenAI([{ type: "auth_error" }], "responses")).toBeInstanceOf(OpenAI.AuthenticationError);
  });
});

describe("stream faults", () => {
  const midStreamError: FakeLlmScript = [{ type: "text", text: "partial" }, { type: "error_event" }];

  it("a mid-stream error event surfaces as an APIError on every endpoint", async () => {
    const a = (await viaAnthropic(midStreamError)) as Error;
    expect(a).toBeInstanceOf(Anthropic.APIError);
    expect(a.message).toContain("Overloaded");
    for (const api of ["chat", "responses"] as const) {
      await fake.close();
      const o = (await viaOpenAI(midStreamError, api)) as Error;
      expect(o).toBeInstanceOf(OpenAI.APIError);
      expect(o.message).toContain("overloaded");
    }
  });

  it("a cut stream fails the SDK read instead of completing", async () => {
    const cut: FakeLlmScript = [{ type: "text", text: "partial" }, { type: "cut" }, { type: "text", text: "never" }];
    expect(await viaAnthropic(cut)).toBeInstanceOf(Error);
    for (const api of ["chat", "responses"] as const) {
      await fake.close();
      expect(await viaOpenAI(cut, api)).toBeInstanceOf(Error);
    }
  });

  it("malformed tool arguments reach the client verbatim", async () => {
    fake = await startFakeOpenAI();
    fake.enqueue([{ type: "tool_call", name: "write", rawArgs: '{"path": "a.txt", "text": ' }]);
    const client = new OpenAI({ baseURL: fake.url, apiKey: "k", maxRetries: 0 });
    const stream = await client.chat.completions.create({
      model: "gpt-4o",
      messages: [{ role: "user", content: "hi" }],
      stream: true,
    });
    let args = "";
    for await (const chunk of stream) args += chunk.choices[0]?.delta.tool_calls?.[0]?.function?.arguments ?? "";
    expect(args).toBe('{"path": "a.txt", "text": ');
    expect(() => JSON.parse(args)).toThrow();
  });

  it("a stall sends no bytes until its time is up", async () => {
    fake = await startFakeAnthropic();
    fake.enqueue([
      { type: "text", text: "before" },
      { type: "stall", ms: 60_000 },
      { type: "text", text: "after" },
    ]);
    const client = new Anthropic({ baseURL: fake.url, apiKey: "k", maxRetries: 0 });
    const controller = new AbortController();
    const stream = client.messages.stream(
      { model: "claude-sonnet-4-6", max_tokens: 100, messages: [{ role: "user", content: "hi" }] },
      { signal: controller.signal },
    );
    const seen: string[] = [];
    const outcome = await (async () => {
      for await (const event of stream) {
        if (event.type === "content_block_delta" && event.delta.type === "text_delta") {
          seen.push(event.delta.text);
          // The stall begins right after the first block: nothing more can arrive, so abort.
          if (seen.length === 1) setImmediate(() => controller.abort());
        }
      }
    })().then(
      () => "completed",
      (error: unknown) => error,
    );
    expect(outcome).toBeInstanceOf(Anthropic.APIUserAbortError);
    expect(seen).toEqual(["before"]);
  });

  it("a request with no script enqueued is answered with a clear 500", async () => {
    fake = await startFakeOpenAI();
    const client = new OpenAI({ baseURL: fake.url, apiKey: "k", maxRetries: 0 });
    const error = await client.chat.completions
      .create({ model: "gpt-4o", messages: [{ role: "user", content: "hi" }], stream: true })
      .then(
        () => undefined,
        (e: unknown) => e as Error,
      );
    expect(error?.message).toContain("no script enqueued");
  });
});

describe("shutdown", () => {
  it("close() ends an open stalled stream and frees the port", async () => {
    fake = await startFakeOpenAI();
    fake.enqueue([
      { type: "text", text: "hi" },
      { type: "stall", ms: 600_000 },
    ]);
    const client = new OpenAI({ baseURL: fake.url, apiKey: "k", maxRetries: 0 });
    const stream = await client.chat.completions.create({
      model: "gpt-4o",
      messages: [{ role: "user", content: "hi" }],
      stream: true,
    });
    const reading = (async () => {
      for await (const _ of stream) {
        // drain
      }
    })().then(
      () => "ended",
      () => "failed",
    );
    await fake.close();
    expect(["ended", "failed"]).toContain(await reading);
    await expect(fetch(`${fake.url}/chat/completions`, { method: "POST" })).rejects.toThrow();
  });
});
