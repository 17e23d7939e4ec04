import { defineTool, type StreamContext, type ToolResultMessage } from "@chorus/core";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { execProbe } from "./fixtures/exec-probe.js";
import { type Harness, startHarness } from "./fixtures/gateway-harness.js";

// Seed 001 "Tool Call Processing", through the gateway: the trust-tier gate refuses a guest's first call, so the rest
// of that batch never runs — not even a call the guest may make — and the model is told why for each.

/** A `current_time` tool (guests may call it) that records each call. */
function clockProbe() {
  const calls: number[] = [];
  const tool = defineTool({
    name: "current_time",
    description: "the time",
    parameters: z.object({}),
    category: "info",
    execute: async () => {
      calls.push(calls.length);
      return { content: [{ type: "text", text: "12:00" }] };
    },
  });
  return { tool, calls };
}

/** A `read_file` tool (refused to guests) that records each call. */
function readProbe() {
  const paths: string[] = [];
  const tool = defineTool({
    name: "read_file",
    description: "reads a file",
    parameters: z.object({ path: z.string() }),
    category: "info",
    execute: async ({ path }) => {
      paths.push(path);
      return { content: [{ type: "text", text: "secret" }] };
    },
  });
  return { tool, paths };
}

function resultsIn(context: StreamContext): string[] {
  return context.messages
    .filter((m): m is ToolResultMessage => m.role === "toolResult")
    .map((m) => m.content.map((part) => (part.type === "text" ? part.text : "")).join(""));
}

describe("a guest's refused tool call halts its batch", () => {
  let h: Harness;
  afterEach(async () => h.close());

  it("the exec probe and the allowed clock after a refused read never run, and the model sees every result", async () => {
    const exec = execProbe();
    const clock = clockProbe();
    const read = readProbe();
    const seen: string[][] = [];
    h = await startHarness({
      config: {
        agents: [{ id: "main", model: "fake-model" }],
        channels: [{ channel: "test", admins: ["owner"], groups: { g1: { requireMention: false, trust: "guest" } } }],
      },
      script: (context: StreamContext) => {
        const last = context.messages.at(-1) as { role: string };
        if (last.role === "toolResult") {
          seen.push(resultsIn(context));
          return "done";
        }
        const text = JSON.stringify(context.messages.at(-1));
        if (text.includes("what time")) return { toolCalls: [{ name: "current_time", args: {} }] };
        return {
          toolCalls: [
            { name: "read_file", args: { path: "/etc/passwd" } },
            { name: "current_time", args: {} },
            { name: "exec", args: { command: "id" } },
          ],
        };
      },
      gateway: { agents: { main: { tools: [read.tool, clock.tool, exec.tool] } } },
    });

    // The clock alone is a call the guest may make.
    await h.send({ chatType: "group", chatId: "g1", text: "what time is it", sender: { id: "stranger", name: "S" } });
    expect(clock.calls).toHaveLength(1);

    await h.send({ chatType: "group", chatId: "g1", text: "read it all", sender: { id: "stranger", name: "S" } });
    expect(read.paths).toEqual([]);
    expect(clock.calls).toHaveLength(1);
    expect(exec.commands).toEqual([]);
    const skipped = 'Tool call skipped: a sibling tool call in the same batch ("read_file") was denied';
    expect(seen.at(-1)?.slice(-3)).toEqual(['Tool "read_file" is not available to a guest user.', skipped, skipped]);
    expect(h.channel.transcript("g1").at(-1)).toContain("done");
  });
});
