import { describe, expect, it } from "vitest";
import { type AgentMessage, agentLoop, type Message } from "../src/index.js";
import { fakeModel, scriptedStreamFn, userMessage } from "../src/testing/index.js";
import { echoTool, textOf } from "./support/test-tools.js";

declare module "../src/index.js" {
  interface CustomAgentMessages {
    note: { role: "note"; text: string; timestamp: number };
  }
}

describe("hooks before every model call", () => {
  it("run asyncTransformContext, then transformContext, then convertToLlm, and getApiKey per call", async () => {
    const order: string[] = [];
    const streamFn = scriptedStreamFn([{ toolCalls: [{ name: "echo", args: { text: "x" } }] }, "done"]);
    const note: AgentMessage = { role: "note", text: "remember the milk", timestamp: 0 };
    await agentLoop(
      [userMessage("go")],
      { messages: [note] },
      {
        model: fakeModel({ provider: "acme" }),
        streamFn,
        tools: [echoTool],
        asyncTransformContext: async (messages) => {
          order.push("async");
          return [...messages, userMessage("retrieved fact")];
        },
        transformContext: (messages) => {
          order.push("sync");
          return messages;
        },
        convertToLlm: (messages) => {
          order.push("convert");
          return messages.map((m): Message => (m.role === "note" ? userMessage(`(note) ${m.text}`) : m));
        },
        getApiKey: (provider) => {
          order.push(`key:${provider}`);
          return `key-${order.length}`;
        },
      },
    ).result();
    expect(order).toEqual(["async", "sync", "convert", "key:acme", "async", "sync", "convert", "key:acme"]);
    expect(streamFn.calls.map((c) => c.options?.apiKey)).toEqual(["key-4", "key-8"]);
    const first = streamFn.calls[0]?.context.messages.map(textOf);
    expect(first).toEqual(["(note) remember the milk", "go", "retrieved fact"]);
  });

  it("drops custom messages by default and never changes the caller's array", async () => {
    const streamFn = scriptedStreamFn(["ok"]);
    const history: AgentMessage[] = [{ role: "note", text: "internal", timestamp: 0 }, userMessage("hi")];
    await agentLoop([], { messages: history }, { model: fakeModel(), streamFn }).result();
    expect(streamFn.calls[0]?.context.messages.map(textOf)).toEqual(["hi"]);
    expect(history).toHaveLength(2);
  });
});
