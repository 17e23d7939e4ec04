import { Agent, type AnyAgentTool, agentLoop, defineTool, type ToolResultMessage } from "@chorus/core";
import { fakeModel, scriptedStreamFn } from "@chorus/core/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { currentTimeTool } from "../src/builtins/current-time-tool.js";
import { SubagentSlots } from "../src/subagents/concurrency-slots.js";
import { coreChildRunner } from "../src/subagents/core-child-runner.js";
import { createDepthDenyPolicy } from "../src/subagents/depth-deny-lists.js";
import type { SubagentEvent, SubagentResult } from "../src/subagents/subagent-types.js";
import { createSubagents } from "../src/subagents/subagents.js";
import { depthOf, lastToolResult, taskOf } from "./support/scripted-roles.js";

const model = fakeModel();
const usage = { input: 100, output: 10 }; // $0.0001 + $0.00002 per call at fakeModel prices
const COST_PER_CALL = (100 * 1 + 10 * 2) / 1_000_000;

function toolResults(messages: readonly unknown[]): ToolResultMessage[] {
  return messages.filter((m): m is ToolResultMessage => (m as { role?: string }).role === "toolResult");
}
function textOf(m: ToolResultMessage | undefined): string {
  return (m?.content ?? []).map((c) => (c.type === "text" ? c.text : "")).join("");
}

describe("sub-agents through the core loop", () => {
  it("runs a depth-2 tree in wait mode, returns each child's answer and rolls cost up to the top", async () => {
    const streamFn = scriptedStreamFn((context) => {
      const depth = depthOf(context);
      const result = lastToolResult(context);
      if (depth === 2) return { text: `leaf answer to "${taskOf(context)}"`, usage };
      if (result) return { text: `depth ${depth} got: ${result.text}`, usage };
      return {
        toolCalls: [{ name: "spawn_agent", args: { agent: "worker", task: `task from depth ${depth}` } }],
        usage,
      };
    });
    const events: SubagentEvent[] = [];
    const subagents = createSubagents({
      agents: { worker: { description: "does work", tools: [currentTimeTool()] } },
      runChild: coreChildRunner({ model, streamFn }),
      limits: { maxSpawnDepth: 2 },
      onEvent: (e) => events.push(e),
      slots: new SubagentSlots(),
    });
    const agent = new Agent({ model, streamFn, tools: subagents.tools, preDispatchPolicies: [subagents.depthPolicy] });
    const updates: unknown[] = [];
    agent.subscribe((e) => {
      if (e.type === "tool_execution_update") updates.push((e.partialResult.details as SubagentEvent).type);
    });
    const run = await agent.prompt("go");
    const final = agent.state.messages[agent.state.messages.length - 1] as { content: { text: string }[] };
    expect(final.content[0]?.text).toBe('depth 0 got: depth 1 got: leaf answer to "task from depth 1"');
    // 5 model calls in all: 2 at the top, 2 at depth 1, 1 at the leaf.
    expect(agent.state.usage.input).toBe(500);
    expect(agent.state.cost).toBeCloseTo(5 * COST_PER_CALL, 12);
    expect(run).toBeDefined();
    const spawned = events.filter((e) => e.type === "subagent_spawned");
    expect(spawned.map((e) => e.depth)).toEqual([1, 2]);
    const [child, grandchild] = spawned;
    expect(grandchild?.parentRunId).toBe(child?.runId);
    const completed = events.filter((e) => e.type === "subagent_completed");
    expect(completed.map((e) => [e.depth, e.status, e.usage.input])).toEqual([
      [2, "completed", 100],
      [1, "completed", 300],
    ]);
    expect(completed[1]?.cost).toBeCloseTo(3 * COST_PER_CALL, 12);
    // The parent's own stream carried the events of its direct child.
    expect(updates).toEqual(["subagent_spawned", "subagent_completed"]);
    // Child session ids carry lineage and depth.
    expect(subagents.get(grandchild?.runId ?? "")?.sessionId).toMatch(
      /^agent:worker:sub:2:run_.+:agent:worker:sub:1:run_/,
    );
  });

  it("a leaf that calls spawn_agent anyway gets an error result and the run goes on", async () => {
    const streamFn = scriptedStreamFn((context) => {
      const depth = depthOf(context);
      const result = lastToolResult(context);
      if (result) return { text: `depth ${depth} saw: ${result.isError ? "ERROR " : ""}${result.text}` };
      return { toolCalls: [{ name: "spawn_agent", args: { agent: "worker", task: "deeper" } }] };
    });
    const subagents = createSubagents({
      agents: { worker: { description: "does work", tools: [] } },
      runChild: coreChildRunner({ model, streamFn }),
      slots: new SubagentSlots(),
    });
    const agent = new Agent({ model, streamFn, tools: subagents.tools, preDispatchPolicies: [subagents.depthPolicy] });
    await agent.prompt("go");
    const top = textOf(toolResults(agent.state.messages)[0]);
    expect(top).toMatch(/^depth 1 saw: ERROR /);
    expect(top).toMatch(/spawn_agent/);
  });

  it("enforces each deny-list at each depth in the dispatch path, even for tools the model can call", async () => {
    const dummy = (name: string): AnyAgentTool =>
      defineTool({
        name,
        description: name,
        parameters: z.object({}),
        category: "info",
        execute: () => ({ content: [{ type: "text", text: `${name} ran` }] }),
      });
    const names = [
      "memory_search",
      "sessions_send",
      "cron",
      "sessions_list",
      "sessions_history",
      "spawn_agent",
      "read_file",
    ];
    const tools = names.map(dummy);
    const policy = createDepthDenyPolicy({ maxSpawnDepth: 2 });
    const outcomes: Record<number, string[]> = {};
    for (const depth of [0, 1, 2]) {
      // One call per reply: a denied call halts the rest of its batch (seed 001), and each deny-list entry is the point.
      const streamFn = scriptedStreamFn([...names.map((name) => ({ toolCalls: [{ name }] })), "done"]);
      const stream = agentLoop(
        [{ role: "user", content: "x", timestamp: 0 }],
        { messages: [] },
        {
          model,
          streamFn,
          tools,
          preDispatchPolicies: [policy],
          run: { depth },
        },
      );
      const added = await stream.result();
      outcomes[depth] = toolResults(added).map((r) => `${r.toolName}:${r.isError ? "denied" : "ran"}`);
    }
    expect(outcomes[0]).toEqual(names.map((n) => `${n}:ran`));
    expect(outcomes[1]).toEqual([
      "memory_search:denied",
      "sessions_send:denied",
      "cron:denied",
      "sessions_list:ran",
      "sessions_history:ran",
      "spawn_agent:ran",
      "read_file:ran",
    ]);
    expect(outcomes[2]).toEqual([
      "memory_search:denied",
      "sessions_send:denied",
      "cron:denied",
      "sessions_list:denied",
      "sessions_history:denied",
      "spawn_agent:denied",
      "read_file:ran",
    ]);
  });

  it("caps spawns per run through the loop: the sixth spawn in one turn is an error result", async () => {
    const streamFn = scriptedStreamFn((context) => {
      if (depthOf(context) > 0) return "child done";
      if (lastToolResult(context)) return "parent done";
      return {
        toolCalls: Array.from({ length: 6 }, (_, i) => ({ name: "spawn_agent", args: { agent: "w", task: `t${i}` } })),
      };
    });
    const subagents = createSubagents({
      agents: { w: { description: "w", tools: [] } },
      runChild: coreChildRunner({ model, streamFn }),
      slots: new SubagentSlots(),
    });
    const agent = new Agent({ model, streamFn, tools: subagents.tools, preDispatchPolicies: [subagents.depthPolicy] });
    await agent.prompt("go");
    const results = toolResults(agent.state.messages);
    expect(results.map((r) => r.isError)).toEqual([false, false, false, false, false, true]);
    expect(textOf(results[5])).toMatch(/already spawned 5 sub-agents/);
  });

  it("aborting the parent cascades to the child and the grandchild", async () => {
    const streamFn = scriptedStreamFn((context) => {
      const depth = depthOf(context);
      if (depth === 2) return { fault: "hang" };
      if (lastToolResult(context)) return "unreachable";
      return { toolCalls: [{ name: "spawn_agent", args: { agent: "w", task: `from ${depth}` } }] };
    });
    const events: SubagentEvent[] = [];
    const subagents = createSubagents({
      agents: { w: { description: "w", tools: [] } },
      runChild: coreChildRunner({ model, streamFn }),
      limits: { maxSpawnDepth: 2 },
      onEvent: (e) => {
        events.push(e);
        if (e.type === "subagent_spawned" && e.depth === 2) setImmediate(() => agent.abort("stop"));
      },
      slots: new SubagentSlots(),
    });
    const agent = new Agent({ model, streamFn, tools: subagents.tools, preDispatchPolicies: [subagents.depthPolicy] });
    const result = await agent.prompt("go");
    expect(result.reason).toBe("aborted");
    const completed = events.filter((e) => e.type === "subagent_completed");
    expect(completed.map((e) => [e.depth, e.status])).toEqual([
      [2, "aborted"],
      [1, "aborted"],
    ]);
  });

  it("cancel_subagent cancels the run's own background child and its descendants", async () => {
    const streamFn = scriptedStreamFn((context) => {
      const depth = depthOf(context);
      if (depth === 1) return { fault: "hang" };
      const result = lastToolResult(context);
      if (!result)
        return { toolCalls: [{ name: "spawn_agent", args: { agent: "w", task: "bg", mode: "background" } }] };
      if (result.text.startsWith("{")) {
        const { runId } = JSON.parse(result.text) as { runId: string };
        return { toolCalls: [{ name: "cancel_subagent", args: { runId } }, { name: "list_subagents" }] };
      }
      return "ok";
    });
    const delivered: SubagentResult[] = [];
    const subagents = createSubagents({
      agents: { w: { description: "w", tools: [] } },
      runChild: coreChildRunner({ model, streamFn }),
      deliver: (_p, r) => {
        delivered.push(r);
      },
      slots: new SubagentSlots(),
    });
    const agent = new Agent({ model, streamFn, tools: subagents.tools });
    await agent.prompt("go");
    const results = toolResults(agent.state.messages);
    expect(textOf(results[1])).toMatch(/^Cancelled 1 run: run_/);
    await waitFor(() => delivered.length === 1);
    expect(delivered[0]?.status).toBe("aborted");
  });

  it("delivers a background child's result and usage to the host after the parent moved on", async () => {
    let releaseChild: () => void = () => {};
    const childMayAnswer = new Promise<void>((r) => {
      releaseChild = r;
    });
    const streamFn = scriptedStreamFn((context) => {
      if (depthOf(context) === 1) return { text: "background answer", usage };
      if (lastToolResult(context)) return { text: "I started it", usage };
      return {
        toolCalls: [{ name: "spawn_agent", args: { agent: "w", task: "bg", mode: "background", label: "bg job" } }],
        usage,
      };
    });
    const delivered: [string, SubagentResult][] = [];
    const subagents = createSubagents({
      agents: { w: { description: "w", tools: [] } },
      runChild: async (request) => {
        await childMayAnswer;
        return coreChildRunner({ model, streamFn })(request);
      },
      deliver: (parentRunId, r) => {
        delivered.push([parentRunId, r]);
      },
      slots: new SubagentSlots(),
    });
    const agent = new Agent({ model, streamFn, tools: subagents.tools });
    let parentRunId = "";
    agent.subscribe((e) => {
      if (e.type === "agent_start") parentRunId = e.runId;
    });
    await agent.prompt("go");
    const accepted = JSON.parse(textOf(toolResults(agent.state.messages)[0])) as { status: string; runId: string };
    expect(accepted.status).toBe("accepted");
    expect(delivered).toEqual([]);
    releaseChild();
    await waitFor(() => delivered.length === 1);
    expect(delivered[0]?.[0]).toBe(parentRunId);
    expect(delivered[0]?.[1]).toMatchObject({
      runId: accepted.runId,
      status: "completed",
      text: "background answer",
      label: "bg job",
      depth: 1,
    });
    expect(delivered[0]?.[1].usage.cost.total).toBeCloseTo(COST_PER_CALL, 12);
  });
});

async function waitFor(check: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(check()).toBe(true);
}

describe("linkAgent", () => {
  it("aborting the parent Agent cancels its background children too", async () => {
    let parentTurns = 0;
    const streamFn = scriptedStreamFn((context) => {
      if (depthOf(context) === 1) return { fault: "hang" };
      parentTurns++;
      if (parentTurns === 1)
        return { toolCalls: [{ name: "spawn_agent", args: { agent: "w", task: "bg", mode: "background" } }] };
      if (parentTurns === 2) return "started it";
      return { fault: "hang" };
    });
    const delivered: SubagentResult[] = [];
    const subagents = createSubagents({
      agents: { w: { description: "w", tools: [] } },
      runChild: coreChildRunner({ model, streamFn }),
      deliver: (_p, r) => {
        delivered.push(r);
      },
      slots: new SubagentSlots(),
    });
    const agent = new Agent({ model, streamFn, tools: subagents.tools });
    const unlink = subagents.linkAgent(agent);
    await agent.prompt("start a background job");
    // A later run of the same Agent is stopped by the user: the first run's background child goes too.
    const second = agent.prompt("now something slow");
    setImmediate(() => agent.abort("stop"));
    expect((await second).reason).toBe("aborted");
    await waitFor(() => delivered.length === 1);
    expect(delivered[0]?.status).toBe("aborted");
    unlink();
  });
});
