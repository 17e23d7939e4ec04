import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type Message, toLlmTool } from "@chorus/core";
import { type FakeLlmServer, startFakeOpenAI } from "@chorus/testkit";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { builtinModels, openAIStreamFn } from "../src/index.js";
import { resolveChatCompat } from "../src/openai/chat-compat.js";
import { chatRequestJson } from "../src/openai/chat-request-json.js";
import { buildChatRequest } from "../src/openai/openai-chat-request.js";
import { readServerSentEvents } from "../src/stream/server-sent-events.js";
import { clearLlmEnv, collect } from "./stream-collect.js";

// Chat Completions go over fetch with our own SSE reader and a body whose tool definitions are serialised once.
let fake: FakeLlmServer | undefined;
beforeAll(() => clearLlmEnv());
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const gpt41 = builtinModels.find((m) => m.id === "gpt-4.1")!;
const user = (text: string): Message => ({ role: "user", content: text, timestamp: 1 });

async function* bytes(...parts: string[]): AsyncGenerator<Uint8Array> {
  const encoder = new TextEncoder();
  for (const part of parts) yield encoder.encode(part);
}

async function events(...parts: string[]) {
  const out = [];
  for await (const event of readServerSentEvents(bytes(...parts))) out.push(event);
  return out;
}

describe("server-sent events", () => {
  it("joins data lines, keeps event names, skips comments, across any chunk boundary", async () => {
    const wire =
      ': keep-alive\n\ndata: {"a":1}\n\nevent: error\ndata: line one\ndata: line two\r\n\r\ndata: [DONE]\n\n';
    const whole = await events(wire);
    expect(whole).toEqual([
      { event: undefined, data: '{"a":1}' },
      { event: "error", data: "line one\nline two" },
      { event: undefined, data: "[DONE]" },
    ]);
    // Every split point, including inside "\r\n" and inside a multi-byte character, reads the same.
    for (let cut = 1; cut < wire.length; cut++) {
      expect(await events(wire.slice(0, cut), wire.slice(cut))).toEqual(whole);
    }
    const accents = 'data: {"t":"héllo ✓"}\n\n';
    const encoded = new TextEncoder().encode(accents);
    const split: Uint8Array[] = [encoded.slice(0, 12), encoded.slice(12, 21), encoded.slice(21)];
    const out = [];
    for await (const event of readServerSentEvents(
      (async function* () {
        yield* split;
      })(),
    ))
      out.push(event);
    expect(out).toEqual([{ event: undefined, data: '{"t":"héllo ✓"}' }]);
  });

  it("delivers a last event whose blank line never came", async () => {
    expect(await events('data: {"b":2}')).toEqual([{ event: undefined, data: '{"b":2}' }]);
    expect(await events('data: {"b":2}\r')).toEqual([{ event: undefined, data: '{"b":2}' }]);
  });
});

describe("the request body", () => {
  it("is the same JSON as the request object, tools last, and each tool's JSON is reused", () => {
    const read = toLlmTool({
      name: "read_file",
      description: "Reads a file",
      category: "info",
      parameters: z.object({ path: z.string(), limit: z.number().int().optional() }),
      execute: async () => ({ content: [] }),
    });
    const compat = resolveChatCompat("openai");
    const request = buildChatRequest(
      gpt41,
      { messages: [user("hi")], tools: [read], systemPrompt: "be brief" },
      {
        maxTokens: 100,
      },
      compat,
    );
    const json = chatRequestJson(request);
    expect(JSON.parse(json)).toEqual(JSON.parse(JSON.stringify(request)));
    expect(Object.keys(JSON.parse(json)).at(-1)).toBe("tools");
    // The next call builds a new request with the same tool entry object: its JSON is not made again.
    const again = buildChatRequest(gpt41, { messages: [user("again")], tools: [read] }, undefined, compat);
    expect(again.tools?.[0]).toBe(request.tools?.[0]);
    expect(JSON.parse(chatRequestJson(again)).tools).toEqual(JSON.parse(json).tools);
    expect(chatRequestJson({ model: "m", messages: [], stream: true })).toBe(
      '{"model":"m","messages":[],"stream":true}',
    );
  });
});

describe("the call over fetch", () => {
  it("sends the key, a configured Authorization wins whatever its case, and a streamed answer arrives", async () => {
    fake = await startFakeOpenAI();
    fake.enqueue([{ type: "text", text: "first" }], [{ type: "text", text: "second" }]);
    const plain = await collect(
      openAIStreamFn({ apiKey: "sk-one", baseUrl: `${fake.url}/` })(gpt41, { messages: [user("a")] }),
    );
    const proxied = await collect(
      openAIStreamFn({ apiKey: "sk-one", baseUrl: fake.url, headers: { Authorization: "Bearer proxy-token" } })(gpt41, {
        messages: [user("b")],
      }),
    );
    expect(plain.message.content).toEqual([{ type: "text", text: "first" }]);
    expect(proxied.message.content).toEqual([{ type: "text", text: "second" }]);
    expect(fake.requests.map((request) => request.headers.authorization)).toEqual([
      "Bearer sk-one",
      "Bearer proxy-token",
    ]);
    expect(fake.requests[0]!.headers["content-type"]).toBe("application/json");
  });

  it("sends the organization and project from OPENAI_ORG_ID and OPENAI_PROJECT_ID, as the openai SDK does", async () => {
    fake = await startFakeOpenAI();
    fake.enqueue([{ type: "text", text: "ok" }], [{ type: "text", text: "ok" }]);
    process.env.OPENAI_ORG_ID = "org-test";
    process.env.OPENAI_PROJECT_ID = "proj_test";
    try {
      await collect(openAIStreamFn({ apiKey: "sk-one", baseUrl: fake.url })(gpt41, { messages: [user("a")] }));
      await collect(
        openAIStreamFn({ apiKey: "sk-one", baseUrl: fake.url, headers: { "OpenAI-Project": "proj_configured" } })(
          gpt41,
          {
            messages: [user("b")],
          },
        ),
      );
    } finally {
      delete process.env.OPENAI_ORG_ID;
      delete process.env.OPENAI_PROJECT_ID;
    }
    expect(
      fake.requests.map((request) => [request.headers["openai-organization"], request.headers["openai-project"]]),
    ).toEqual([
      ["org-test", "proj_test"],
      ["org-test", "proj_configured"],
    ]);
  });

  it("an error body's message reaches the user, with the status, and the key never does", async () => {
    fake = await startFakeOpenAI();
    fake.enqueue([{ type: "bad_request", message: "messages: field required (key sk-secret-123456789)" }]);
    const { message } = await collect(
      openAIStreamFn({ apiKey: "sk-secret-123456789", baseUrl: fake.url })(gpt41, {
        messages: [user("a")],
      }),
    );
    expect(message.error).toMatchObject({ kind: "invalid_request", status: 400 });
    expect(message.errorMessage).toContain("400 messages: field required");
    expect(message.errorMessage).not.toContain("sk-secret-123456789");
  });

  it("an answer whose body stays open after [DONE] is complete at once", async () => {
    const chunk = (delta: object, finish: string | null = null) =>
      `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", created: 1, model: "gpt-4.1", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    const server: Server = createServer((_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write(chunk({ role: "assistant", content: "still open" }));
      response.write(chunk({}, "stop"));
      response.write("data: [DONE]\n\n");
      // …and never ends the response.
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
      const started = Date.now();
      const { message } = await collect(
        openAIStreamFn({ apiKey: "sk-x", baseUrl: url })(gpt41, { messages: [user("a")] }),
      );
      expect(message.stopReason).toBe("stop");
      expect(message.content).toEqual([{ type: "text", text: "still open" }]);
      expect(Date.now() - started).toBeLessThan(4_000);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
