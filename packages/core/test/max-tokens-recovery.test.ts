import { describe, expect, it } from "vitest";
import { agentLoop, CONTINUE_AFTER_LENGTH_TEXT, CUT_OFF_TOOL_CALL_TEXT } from "../src/index.js";
import { fakeModel, scriptedStreamFn, userMessage } from "../src/testing/index.js";
import { collect, echoTool, ofType, textOf } from "./support/test-tools.js";

const model = fakeModel();
const cutOff = {
  toolCalls: [
    { name: "echo", args: { text: "complete" } },
    { name: "echo", args: { text: "trunc" }, incomplete: true },
  ],
  stopReason: "length" as const,
};

describe("max-tokens recovery", () => {
  it("never runs a call the output limit cut off: it gets an error result saying so, and the loop continues", async () => {
    const streamFn = scriptedStreamFn([cutOff, "recovered"]);
    const stream = agentLoop([userMessage("go")], { messages: [] }, { model, streamFn, tools: [echoTool] });
    const events = await collect(stream);
    const results = ofType(events, "turn_end")[0]?.toolResults ?? [];
    expect(results.map((r) => [textOf(r), r.isError])).toEqual([
      ["complete", false],
      [CUT_OFF_TOOL_CALL_TEXT, true],
    ]);
    expect(ofType(events, "agent_end")[0]?.reason).toBe("completed");
    expect(textOf((await stream.result()).at(-1))).toBe("recovered");
  });

  it("asks the model to continue after a length stop without tool calls", async () => {
    const streamFn = scriptedStreamFn([{ text: "first half", stopReason: "length" }, "second half"]);
    await agentLoop([userMessage("go")], { messages: [] }, { model, streamFn }).result();
    expect(textOf(streamFn.calls[1]?.context.messages.at(-1))).toBe(CONTINUE_AFTER_LENGTH_TEXT);
  });

  it("recovers at most maxOutputRecoveries times, then ends with reason length", async () => {
    const streamFn = scriptedStreamFn(() => cutOff);
    const events = await collect(
      agentLoop([userMessage("go")], { messages: [] }, { model, streamFn, tools: [echoTool], maxOutputRecoveries: 2 }),
    );
    expect(streamFn.calls).toHaveLength(3);
    const end = ofType(events, "agent_end")[0];
    expect(end?.reason).toBe("length");
    expect(end?.error).toMatch(/output limit/);
  });
});
