import { describe, expect, it } from "vitest";
import { agentLoop, type Message, MISSING_RESULT_TEXT, repairTranscript } from "../src/index.js";
import { assistantToolCalls, fakeModel, scriptedStreamFn, toolResult, userMessage } from "../src/testing/index.js";

describe("transcript repair (seeds 002 and 003)", () => {
  it("returns the very same array when the transcript is consistent", () => {
    const messages: Message[] = [
      userMessage("a"),
      assistantToolCalls([{ name: "t" }]),
      toolResult("call_1", "t", "ok"),
    ];
    expect(repairTranscript(messages)).toBe(messages);
  });

  it("gives a call without a result a synthetic error result right after its batch", () => {
    const messages: Message[] = [
      userMessage("a"),
      assistantToolCalls([
        { name: "t", id: "x" },
        { name: "t", id: "y" },
      ]),
      toolResult("x", "t", "ok"),
      userMessage("b"),
    ];
    const repaired = repairTranscript(messages);
    expect(repaired.map((m) => (m.role === "toolResult" ? `${m.toolCallId}:${m.isError}` : m.role))).toEqual([
      "user",
      "assistant",
      "x:false",
      "y:true",
      "user",
    ]);
    expect(repaired[3]).toMatchObject({ content: [{ type: "text", text: MISSING_RESULT_TEXT }] });
    expect(messages).toHaveLength(4);
  });

  it("removes a result whose call is gone (e.g. compacted away) and a duplicate result", () => {
    const messages: Message[] = [
      toolResult("gone", "t", "orphan"),
      userMessage("a"),
      assistantToolCalls([{ name: "t", id: "x" }]),
      toolResult("x", "t", "ok"),
      toolResult("x", "t", "again"),
    ];
    expect(repairTranscript(messages).map((m) => m.role)).toEqual(["user", "assistant", "toolResult"]);
  });

  it("runs before every request: the model never sees an orphan call or result", async () => {
    const streamFn = scriptedStreamFn(["fine"]);
    const context = {
      messages: [toolResult("lost", "t", "orphan"), userMessage("a"), assistantToolCalls([{ name: "t", id: "open" }])],
    };
    await agentLoop([userMessage("continue please")], context, { model: fakeModel(), streamFn }).result();
    const sent = streamFn.calls[0]?.context.messages ?? [];
    expect(sent.map((m) => (m.role === "toolResult" ? `result:${m.toolCallId}` : m.role))).toEqual([
      "user",
      "assistant",
      "result:open",
      "user",
    ]);
  });
});
