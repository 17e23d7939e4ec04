import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { type AgentEvent, type AnyAgentTool, agentLoop, defineTool, type ToolAbortError } from "../src/index.js";
import { fakeModel, scriptedStreamFn, userMessage } from "../src/testing/index.js";
import { collect, echoTool, gateTool, ofType, textOf } from "./support/test-tools.js";

const model = fakeModel();

function label(e: AgentEvent): string {
  return e.type === "message_end" ? `message_end:${(e.message as { role: string }).role}` : e.type;
}

afterEach(() => {
  vi.useRealTimers();
});

function run(calls: { name: string; args: Record<string, unknown> }[], tools: AnyAgentTool[], extra = {}) {
  const streamFn = scriptedStreamFn([{ toolCalls: calls }, "finished"]);
  const stream = agentLoop([userMessage("go")], { messages: [] }, { model, streamFn, tools, ...extra });
  const events = collect(stream);
  return { stream, events, streamFn };
}

describe("tool executor scheduling (seed 004)", () => {
  it("runs concurrency-safe calls in parallel, up to maxConcurrency", async () => {
    const gate = gateTool("gate", { safe: true });
    const { events } = run(
      ["a", "b", "c"].map((id) => ({ name: "gate", args: { id } })),
      [gate.tool],
      { toolExecution: { maxConcurrency: 2 } },
    );
    await vi.waitFor(() => expect(gate.started).toEqual(["a", "b"]));
    gate.release("a");
    await vi.waitFor(() => expect(gate.started).toEqual(["a", "b", "c"]));
    gate.release("b");
    gate.release("c");
    expect(ofType(await events, "agent_end")[0]?.reason).toBe("completed");
  });

  it("runs an unsafe call alone: it waits for running calls and holds back later ones", async () => {
    const safe = gateTool("safe", { safe: true });
    const unsafe = gateTool("unsafe", { safe: false });
    const { events } = run(
      [
        { name: "safe", args: { id: "s1" } },
        { name: "unsafe", args: { id: "u" } },
        { name: "safe", args: { id: "s2" } },
      ],
      [safe.tool, unsafe.tool],
    );
    await vi.waitFor(() => expect(safe.started).toEqual(["s1"]));
    expect(unsafe.started).toEqual([]);
    safe.release("s1");
    await vi.waitFor(() => expect(unsafe.started).toEqual(["u"]));
    expect(safe.started).toEqual(["s1"]);
    unsafe.release("u");
    await vi.waitFor(() => expect(safe.started).toEqual(["s1", "s2"]));
    safe.release("s2");
    await events;
  });

  it("keeps results in call order while tool_execution_end fires in completion order", async () => {
    const gate = gateTool("gate", { safe: true });
    const { events, streamFn } = run(
      [
        { name: "gate", args: { id: "first" } },
        { name: "gate", args: { id: "second" } },
      ],
      [gate.tool],
    );
    await vi.waitFor(() => expect(gate.started).toHaveLength(2));
    gate.release("second");
    gate.release("first");
    const all = await events;
    expect(ofType(all, "tool_execution_end").map((e) => textOf(e.result))).toEqual(["second done", "first done"]);
    expect(ofType(all, "turn_end")[0]?.toolResults.map(textOf)).toEqual(["first done", "second done"]);
    const sent = streamFn.calls[1]?.context.messages.filter((m) => m.role === "toolResult").map(textOf);
    expect(sent).toEqual(["first done", "second done"]);
  });

  it("starts a call at its toolcall_end while the model is still streaming", async () => {
    vi.useFakeTimers();
    const gate = gateTool("gate", { safe: true });
    const streamFn = scriptedStreamFn([
      {
        toolCalls: [
          { name: "gate", args: { id: "A" }, delayMs: 100 },
          { name: "gate", args: { id: "B" }, delayMs: 900 },
        ],
      },
      "finished",
    ]);
    const seen: string[] = [];
    const stream = agentLoop([userMessage("go")], { messages: [] }, { model, streamFn, tools: [gate.tool] });
    const done = (async () => {
      for await (const e of stream) seen.push(label(e));
    })();
    await vi.advanceTimersByTimeAsync(100);
    expect(gate.started).toEqual(["A"]);
    expect(seen).not.toContain("message_end:assistant");
    gate.release("A");
    await vi.advanceTimersByTimeAsync(900);
    expect(gate.started).toEqual(["A", "B"]);
    gate.release("B");
    await vi.runAllTimersAsync();
    await done;
    expect(seen.indexOf("tool_execution_start")).toBeLessThan(seen.indexOf("message_end:assistant"));
  });

  it("waits for the whole message before running tools when streaming is off", async () => {
    vi.useFakeTimers();
    const gate = gateTool("gate", { safe: true });
    const streamFn = scriptedStreamFn([
      { toolCalls: [{ name: "gate", args: { id: "A" }, delayMs: 100 }], endDelayMs: 500 },
      "finished",
    ]);
    const stream = agentLoop(
      [userMessage("go")],
      { messages: [] },
      {
        model,
        streamFn,
        tools: [gate.tool],
        toolExecution: { streaming: false },
      },
    );
    const events = collect(stream);
    await vi.advanceTimersByTimeAsync(550);
    expect(gate.started).toEqual([]);
    await vi.advanceTimersByTimeAsync(100);
    expect(gate.started).toEqual(["A"]);
    gate.release("A");
    await vi.runAllTimersAsync();
    await events;
  });
});

describe("tool progress", () => {
  it("forwards onUpdate partial results as tool_execution_update events", async () => {
    const progress = defineTool({
      name: "progress",
      description: "reports progress",
      parameters: z.object({}),
      category: "exec",
      execute: async (_args, ctx) => {
        ctx.onUpdate({ content: [{ type: "text", text: "50%" }] });
        return { content: [{ type: "text", text: "100%" }], details: { steps: 2 } };
      },
    });
    const { events } = run([{ name: "progress", args: {} }], [progress]);
    const all = await events;
    expect(ofType(all, "tool_execution_update").map((e) => textOf(e.partialResult))).toEqual(["50%"]);
    expect(ofType(all, "tool_execution_end")[0]?.result.details).toEqual({ steps: 2 });
  });
});

describe("tool executor failures become error results the model can read", () => {
  it("answers an unknown tool with 'Tool not found'", async () => {
    const { events, streamFn } = run([{ name: "nope", args: {} }], [echoTool]);
    const ends = ofType(await events, "tool_execution_end");
    expect(ends[0]?.isError).toBe(true);
    expect(textOf(ends[0]?.result)).toBe("Tool not found: nope");
    expect(streamFn.calls).toHaveLength(2);
  });

  it("lists every validation issue of invalid arguments and does not run the tool", async () => {
    const execute = vi.fn(async () => ({ content: [] }));
    const strict = defineTool({
      name: "strict",
      description: "needs a path and a count",
      parameters: z.object({ path: z.string(), count: z.number().int() }),
      category: "edit",
      execute,
    });
    const { events } = run([{ name: "strict", args: { path: 7, count: 1.5 } }], [strict]);
    const text = textOf(ofType(await events, "tool_execution_end")[0]?.result);
    expect(text).toMatch(/Invalid arguments for tool "strict"/);
    expect(text).toMatch(/- path: /);
    expect(text).toMatch(/- count: /);
    expect(execute).not.toHaveBeenCalled();
  });

  it("turns a throwing tool into an error result with its message and goes on", async () => {
    const broken = defineTool({
      name: "broken",
      description: "throws",
      parameters: z.object({}),
      category: "info",
      execute: () => {
        throw new Error("disk on fire");
      },
    });
    const { events } = run([{ name: "broken", args: {} }], [broken]);
    const all = await events;
    const end = ofType(all, "tool_execution_end")[0];
    expect(end?.isError).toBe(true);
    expect(textOf(end?.result)).toBe("disk on fire");
    expect(ofType(all, "agent_end")[0]?.reason).toBe("completed");
  });

  it("times a tool out by its category, aborts its signal and gives an error result", async () => {
    vi.useFakeTimers();
    const slow = gateTool("slow", { category: "mcp", ignoreSignal: true });
    const { events } = run([{ name: "slow", args: { id: "x" } }], [slow.tool], {
      toolExecution: { timeouts: { mcp: 5_000 } },
    });
    await vi.advanceTimersByTimeAsync(4_999);
    expect(slow.signals.get("x")?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const signal = slow.signals.get("x");
    expect(signal?.aborted).toBe(true);
    expect((signal?.reason as ToolAbortError | undefined)?.kind).toBe("timeout");
    await vi.runAllTimersAsync();
    const end = ofType(await events, "tool_execution_end")[0];
    expect(textOf(end?.result)).toBe("Tool execution was aborted: timed out after 5 s (mcp timeout)");
  });

  it("uses the seed's default of 30 s for info tools", async () => {
    vi.useFakeTimers();
    const slow = gateTool("slow", { category: "info", ignoreSignal: true });
    const { events } = run([{ name: "slow", args: { id: "x" } }], [slow.tool]);
    await vi.advanceTimersByTimeAsync(29_999);
    expect(slow.signals.get("x")?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(slow.signals.get("x")?.aborted).toBe(true);
    await vi.runAllTimersAsync();
    await events;
  });

  it("cancels the batch's other calls when a tool marked cancelSiblingsOnFailure fails", async () => {
    const shell = gateTool("shell", { safe: true, cancelSiblingsOnFailure: true });
    const other = gateTool("other", { safe: true });
    const { events } = run(
      [
        { name: "other", args: { id: "o" } },
        { name: "shell", args: { id: "sh" } },
      ],
      [shell.tool, other.tool],
    );
    await vi.waitFor(() => expect(shell.started).toEqual(["sh"]));
    shell.fail("sh", "exit code 1");
    const all = await events;
    const results = ofType(all, "turn_end")[0]?.toolResults.map(textOf);
    expect(results).toEqual(["Tool execution was aborted: a sibling tool call failed", "exit code 1"]);
    expect((other.signals.get("o")?.reason as ToolAbortError | undefined)?.kind).toBe("sibling_error");
  });
});
