import { type FakeLlmServer, startFakeOpenAI } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { createOpenAiEmbedder, EmbeddingError } from "../src/index.js";

let server: FakeLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("the OpenAI-compatible embedder", () => {
  it("sends the texts, model and key, and returns one vector per text in order", async () => {
    server = await startFakeOpenAI({ embed: (text) => [text.length, 1, 0] });
    const embed = createOpenAiEmbedder({ baseUrl: server.url, model: "text-embedding-3-small", apiKey: "k-test-123" });
    const vectors = await embed(["a", "abc", "ab"]);
    expect(vectors).toEqual([Float32Array.from([1, 1, 0]), Float32Array.from([3, 1, 0]), Float32Array.from([2, 1, 0])]);
    const request = server.requests[0];
    expect(request?.path).toBe("/v1/embeddings");
    expect(request?.headers.authorization).toBe("Bearer k-test-123");
    expect(request?.body).toMatchObject({ model: "text-embedding-3-small", input: ["a", "abc", "ab"] });
  });

  it("rejects with the server's message, never the key, when the server refuses", async () => {
    server = await startFakeOpenAI();
    const embed = createOpenAiEmbedder({ baseUrl: server.url, model: "m", apiKey: "k-very-secret" });
    const failed = embed([""]);
    await expect(failed).rejects.toBeInstanceOf(EmbeddingError);
    await expect(failed).rejects.toMatchObject({ status: 400, message: expect.stringContaining("input") });
    await expect(failed).rejects.not.toMatchObject({ message: expect.stringContaining("k-very-secret") });
  });

  it("asks for nothing when there is nothing to embed", async () => {
    server = await startFakeOpenAI();
    const embed = createOpenAiEmbedder({ baseUrl: server.url, model: "m" });
    expect(await embed([])).toEqual([]);
    expect(server.requests).toEqual([]);
  });
});
