import { describe, expect, it } from "vitest";
import { z } from "zod";
import { type AgentEvent, agentLoop, defineTool } from "../src/index.js";
import { fakeModel, scriptedStreamFn, userMessage } from "../src/testing/index.js";

const echo = defineTool({
  name: "echo",
  description: "Echoes its text",
  parameters: z.object({ text: z.string() }),
  category: "info",
  concurrencySafe: true,
  execute: async ({ text }) => ({ content: [{ type: "text", text }] }),
});

function label(e: AgentEvent): string {
  if (e.type === "message_start" || e.type === "message_end")
    return `${e.type}:${(e.message as { role: string }).role}`;
  return e.type;
}

describe("event order of a two-turn run with one tool call (seed 000)", () => {
  it("emits the seed's sequence, with message events for the prompt and the tool result", async () => {
    const streamFn = scriptedStreamFn([
      { text: "calling", toolCalls: [{ name: "echo", args: { text: "hi" } }] },
      "done",
    ]);
    const stream = agentLoop(
      [userMessage("go")],
      { messages: [] },
      {
        model: fakeModel(),
        streamFn,
        tools: [echo],
        toolExecution: { streaming: false },
      },
    );
    const events: AgentEvent[] = [];
    for await (const e of stream) events.push(e);
    const labels = events.map(label).filter((l, i, all) => l !== "message_update" || all[i - 1] !== "message_update");
    expect(labels).toEqual([
      "agent_start",
      "turn_start",
      "message_start:user",
      "message_end:user",
      "message_start:assistant",
      "message_update",
      "message_end:assistant",
      "tool_execution_start",
      "tool_execution_end",
      "message_start:toolResult",
      "message_end:toolResult",
      "turn_end",
      "turn_start",
      "message_start:assistant",
      "message_update",
      "message_end:assistant",
      "turn_end",
      "agent_end",
    ]);
    const added = await stream.result();
    expect(added.map((m) => (m as { role: string }).role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
    const end = events.at(-1);
    expect(end?.type === "agent_end" && end.reason).toBe("completed");
    const turnEnd = events.find((e) => e.type === "turn_end");
    expect(turnEnd?.type === "turn_end" && turnEnd.toolResults.map((r) => r.content)).toEqual([
      [{ type: "text", text: "hi" }],
    ]);
  });

  it("sends the tool result and the thinking signature back to the model on the next turn", async () => {
    const streamFn = scriptedStreamFn([
      { thinking: { thinking: "plan", signature: "sig-A" }, toolCalls: [{ name: "echo", args: { text: "x" } }] },
      "ok",
    ]);
    await agentLoop([userMessage("go")], { messages: [] }, { model: fakeModel(), streamFn, tools: [echo] }).result();
    const second = streamFn.calls[1]?.context;
    expect(second?.messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult"]);
    expect(second?.messages[1]?.content).toContainEqual({ type: "thinking", thinking: "plan", signature: "sig-A" });
    expect(second?.tools?.[0]).toMatchObject({ name: "echo", parameters: { type: "object" } });
  });
});
