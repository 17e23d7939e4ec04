import OpenAI from "openai";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { type FakeLlmServer, hashedWordEmbedding, startFakeOpenAI } from "../src/llm/index.js";
import { clearLlmEnv } from "./llm-env.js";

let fake: FakeLlmServer | undefined;
beforeAll(() => clearLlmEnv());
afterEach(async () => fake?.close());

describe("fake OpenAI embeddings with the real SDK", () => {
  it("answers every input with its vector, in order, in the SDK's default base64 encoding", async () => {
    fake = await startFakeOpenAI({ embed: (text) => [text.length, 0.5, -1] });
    const client = new OpenAI({ baseURL: fake.url, apiKey: "sk-test", maxRetries: 0 });
    const answer = await client.embeddings.create({ model: "text-embedding-3-small", input: ["ab", "abcd"] });
    expect(answer.data.map((item) => item.embedding)).toEqual([
      [2, 0.5, -1],
      [4, 0.5, -1],
    ]);
    expect(answer.model).toBe("text-embedding-3-small");
    expect(fake.pending()).toBe(0);
  });

  it("embeds texts sharing words close together by default", async () => {
    fake = await startFakeOpenAI();
    const client = new OpenAI({ baseURL: fake.url, apiKey: "sk-test", maxRetries: 0 });
    const answer = await client.embeddings.create({ model: "m", input: "green tea", encoding_format: "float" });
    expect(answer.data[0]?.embedding).toEqual(hashedWordEmbedding("Green tea!"));
  });

  it("refuses an empty input with a 400, as OpenAI does", async () => {
    fake = await startFakeOpenAI();
    const client = new OpenAI({ baseURL: fake.url, apiKey: "sk-test", maxRetries: 0 });
    await expect(client.embeddings.create({ model: "m", input: [] })).rejects.toMatchObject({ status: 400 });
  });
});
