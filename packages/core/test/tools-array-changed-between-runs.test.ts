import { describe, expect, it } from "vitest";
import { z } from "zod";
import { type AnyAgentTool, agentLoop, defineTool } from "../src/index.js";
import { fakeModel, scriptedStreamFn, userMessage } from "../src/testing/index.js";
import { collect, echoTool } from "./support/test-tools.js";

const model = fakeModel();

const shout = defineTool({
  name: "shout",
  description: "Shouts its text",
  parameters: z.object({ text: z.string() }),
  category: "info",
  execute: async ({ text }) => ({ content: [{ type: "text", text: text.toUpperCase() }] }),
});

describe("a tools array reused across runs (indexed once, as long as it does not change)", () => {
  it("offers and runs the tools the array holds at each run's start, also after it changed in place", async () => {
    const tools: AnyAgentTool[] = [echoTool];
    const first = scriptedStreamFn(["hi"]);
    await collect(agentLoop([userMessage("go")], { messages: [] }, { model, streamFn: first, tools }));
    expect(first.calls[0]?.context.tools?.map((tool) => tool.name)).toEqual(["echo"]);

    tools.push(shout);
    const second = scriptedStreamFn([{ toolCalls: [{ name: "shout", args: { text: "hey" } }] }, "done"]);
    const events = await collect(agentLoop([userMessage("go")], { messages: [] }, { model, streamFn: second, tools }));
    expect(second.calls[0]?.context.tools?.map((tool) => tool.name)).toEqual(["echo", "shout"]);
    const end = events.find((event) => event.type === "tool_execution_end");
    expect(end?.type === "tool_execution_end" && end.isError).toBe(false);
  });

  it("still refuses two tools of one name when the duplicate was pushed after a run", async () => {
    const tools: AnyAgentTool[] = [echoTool];
    await collect(
      agentLoop([userMessage("go")], { messages: [] }, { model, streamFn: scriptedStreamFn(["hi"]), tools }),
    );
    tools.push(echoTool);
    expect(() =>
      agentLoop([userMessage("go")], { messages: [] }, { model, streamFn: scriptedStreamFn(["hi"]), tools }),
    ).toThrow(/two tools are named "echo"/);
  });
});
