import type { AssistantMessage, Message } from "@chorus/core";
import { emptyUsage } from "@chorus/core";
import { describe, expect, it } from "vitest";
import { normalizeToolCallId, prepareMessagesFor } from "../src/index.js";

const claude = { id: "claude-sonnet-4-6", api: "anthropic-messages", provider: "anthropic" };
const gpt = { id: "gpt-4.1", api: "openai-chat", provider: "openai" };

function fromResponses(): AssistantMessage {
  return {
    role: "assistant",
    content: [
      { type: "thinking", thinking: "plan", signature: '{"type":"reasoning","id":"rs_1"}' },
      { type: "thinking", thinking: "", redacted: true, signature: "opaque" },
      { type: "text", text: "calling" },
      { type: "toolCall", id: "call_abc|fc_123", name: "t", arguments: {} },
    ],
    api: "openai-responses",
    provider: "openai",
    model: "gpt-5",
    usage: emptyUsage(),
    stopReason: "toolUse",
    timestamp: 1,
  };
}

const result = (id: string): Message => ({
  role: "toolResult",
  toolCallId: id,
  toolName: "t",
  content: [{ type: "text", text: "ok" }],
  isError: false,
  timestamp: 2,
});

describe("cross-provider handoff", () => {
  it("drops another provider's thinking and renames tool ids consistently", () => {
    const out = prepareMessagesFor(claude, [fromResponses(), result("call_abc|fc_123")]);
    const assistant = out[0] as AssistantMessage;
    expect(assistant.content.map((c) => c.type)).toEqual(["text", "toolCall"]);
    const call = assistant.content[1] as { id: string };
    expect(call.id).toMatch(/^[a-zA-Z0-9_-]+$/);
    expect((out[1] as { toolCallId: string }).toolCallId).toBe(call.id);
  });

  it("can carry visible thinking over as text, never redacted data", () => {
    const out = prepareMessagesFor(claude, [fromResponses()], "text");
    const texts = (out[0] as AssistantMessage).content.filter((c) => c.type === "text").map((c) => c.text);
    expect(texts).toEqual(["<thinking>\nplan\n</thinking>", "calling"]);
    expect(JSON.stringify(out)).not.toContain("opaque");
  });

  it("keeps signed thinking verbatim for the model that wrote it", () => {
    const own: AssistantMessage = {
      ...fromResponses(),
      api: "anthropic-messages",
      provider: "anthropic",
      model: claude.id,
    };
    const out = prepareMessagesFor(claude, [own]);
    expect((out[0] as AssistantMessage).content.slice(0, 2)).toEqual(own.content.slice(0, 2));
  });

  it("leaves failed turns out", () => {
    const failed: AssistantMessage = { ...fromResponses(), stopReason: "error", errorMessage: "boom" };
    expect(prepareMessagesFor(gpt, [failed])).toEqual([]);
  });

  it("shortens long ids for OpenAI Chat without collisions", () => {
    const a = normalizeToolCallId(`toolu_${"a".repeat(60)}1`, "openai-chat");
    const b = normalizeToolCallId(`toolu_${"a".repeat(60)}2`, "openai-chat");
    expect(a.length).toBeLessThanOrEqual(40);
    expect(a).not.toBe(b);
    expect(normalizeToolCallId("call_ok", "openai-chat")).toBe("call_ok");
  });
});
