import { describe, expect, it } from "vitest";
import { currentTimeTool } from "../src/builtins/current-time-tool.js";
import { SubagentSlots } from "../src/subagents/concurrency-slots.js";
import { createDepthDenyPolicy, depthDenyReason } from "../src/subagents/depth-deny-lists.js";
import { resolveSubagentLimits, SubagentConfigError } from "../src/subagents/subagent-limits.js";
import type { SubagentEvent, SubagentResult } from "../src/subagents/subagent-types.js";
import { createSubagents } from "../src/subagents/subagents.js";
import { dispatchRequest } from "./support/dispatch-request.js";
import { fakeChildRunner, untilAborted } from "./support/fake-child-runner.js";
import { callContext } from "./support/temp-workspace.js";

const profile = { description: "does research", tools: [currentTimeTool()] };

function textOf(out: { content: { type: string; text?: string }[] }): string {
  return out.content.map((c) => c.text ?? "").join("");
}

describe("sub-agent limits", () => {
  it("defaults and validates the limits", () => {
    expect(resolveSubagentLimits()).toMatchObject({
      maxSpawnDepth: 1,
      maxChildrenPerRun: 5,
      maxConcurrentSubagents: 8,
    });
    expect(() => resolveSubagentLimits({ maxSpawnDepth: 6 })).toThrow(SubagentConfigError);
    expect(() => resolveSubagentLimits({ maxSpawnDepth: 0 })).toThrow(/from 1 to 5/);
    expect(() => resolveSubagentLimits({ maxChildrenPerRun: 0 })).toThrow(/maxChildrenPerRun must be positive/);
  });

  it("refuses a spawn past maxSpawnDepth with an error result", async () => {
    const subagents = createSubagents({
      agents: { r: profile },
      runChild: fakeChildRunner(),
      slots: new SubagentSlots(),
    });
    const out = await subagents.spawn(
      { agent: "r", task: "x", mode: "wait" },
      callContext({ run: { runId: "leaf", depth: 1 } }),
    );
    expect(out.isError).toBe(true);
    expect(textOf(out)).toMatch(/you are at depth 1 and the deepest allowed sub-agent is depth 1/);
  });

  it("refuses an unknown agent, naming the known ones", async () => {
    const subagents = createSubagents({
      agents: { r: profile },
      runChild: fakeChildRunner(),
      slots: new SubagentSlots(),
    });
    const out = await subagents.spawn({ agent: "nope", task: "x", mode: "wait" }, callContext());
    expect(textOf(out)).toBe('spawn_agent refused: unknown agent "nope". Available: r.');
  });

  it("caps children per run", async () => {
    const subagents = createSubagents({
      agents: { r: profile },
      runChild: fakeChildRunner(),
      limits: { maxChildrenPerRun: 2 },
      slots: new SubagentSlots(),
    });
    const ctx = callContext();
    const outs = [];
    for (let i = 0; i < 3; i++) outs.push(await subagents.spawn({ agent: "r", task: `t${i}`, mode: "wait" }, ctx));
    expect(outs.map((o) => o.isError ?? false)).toEqual([false, false, true]);
    expect(textOf(outs[2] ?? { content: [] })).toMatch(/already spawned 2 sub-agents/);
    // Another run has its own allowance.
    const other = await subagents.spawn(
      { agent: "r", task: "t", mode: "wait" },
      callContext({ run: { runId: "run-2", depth: 0 } }),
    );
    expect(other.isError).toBeUndefined();
  });

  it("caps concurrent sub-agents across every instance sharing the slots", async () => {
    const slots = new SubagentSlots();
    const runner = fakeChildRunner((r) => untilAborted(r.signal));
    const a = createSubagents({
      agents: { r: profile },
      runChild: runner,
      limits: { maxConcurrentSubagents: 2 },
      slots,
    });
    const b = createSubagents({
      agents: { r: profile },
      runChild: runner,
      limits: { maxConcurrentSubagents: 2 },
      slots,
    });
    expect(
      (await a.spawn({ agent: "r", task: "1", mode: "background" }, callContext({ run: { runId: "A", depth: 0 } })))
        .isError,
    ).toBeUndefined();
    expect(
      (await b.spawn({ agent: "r", task: "2", mode: "background" }, callContext({ run: { runId: "B", depth: 0 } })))
        .isError,
    ).toBeUndefined();
    const third = await b.spawn(
      { agent: "r", task: "3", mode: "background" },
      callContext({ run: { runId: "B", depth: 0 } }),
    );
    expect(textOf(third)).toMatch(/2 sub-agents are already running/);
    a.cancelChildren("A");
    await vitestWaitFor(() => slots.inUse === 1);
    expect(
      (await b.spawn({ agent: "r", task: "4", mode: "background" }, callContext({ run: { runId: "B", depth: 0 } })))
        .isError,
    ).toBeUndefined();
    b.cancelChildren("B");
    await vitestWaitFor(() => slots.inUse === 0);
  });

  it("times a child out and says so", async () => {
    const subagents = createSubagents({
      agents: { r: profile },
      runChild: fakeChildRunner((r) => untilAborted(r.signal)),
      slots: new SubagentSlots(),
    });
    const out = await subagents.spawn({ agent: "r", task: "x", mode: "wait", timeoutSeconds: 0.05 }, callContext());
    expect(out.isError).toBe(true);
    expect(textOf(out)).toMatch(/^Sub-agent r timed out after 0.05 s/);
  });
});

describe("deny-lists by depth", () => {
  const options = { maxSpawnDepth: 2, groups: { admin: ["restart_gateway"] } };
  const alwaysDenied = [
    "sessions_send",
    "cron",
    "memory_search",
    "memory_get",
    "restart_gateway",
    "gateway",
    "schedule_task",
  ];
  const leafDenied = ["spawn_agent", "sessions_list", "sessions_history"];

  it("restricts nothing at depth 0", () => {
    expect([...alwaysDenied, ...leafDenied].filter((t) => depthDenyReason(t, 0, options))).toEqual([]);
  });

  it("denies the always-list at every sub-agent depth, the leaf-list only at the leaf", () => {
    for (const depth of [1, 2]) {
      expect(
        alwaysDenied.filter((t) => !depthDenyReason(t, depth, options)),
        `depth ${depth}`,
      ).toEqual([]);
    }
    expect(leafDenied.filter((t) => depthDenyReason(t, 1, options))).toEqual([]);
    expect(leafDenied.filter((t) => !depthDenyReason(t, 2, options))).toEqual([]);
    expect(depthDenyReason("read_file", 2, options)).toBeUndefined();
  });

  it("is enforced as a dispatch policy on the call's own depth", async () => {
    const policy = createDepthDenyPolicy(options);
    const leafCall = dispatchRequest("spawn_agent");
    leafCall.run.depth = 2;
    expect(await policy(leafCall)).toEqual({
      kind: "deny",
      reason: expect.stringMatching(/"spawn_agent" is not available at depth 2 of 2/),
    });
    const midCall = dispatchRequest("spawn_agent");
    midCall.run.depth = 1;
    expect(await policy(midCall)).toBeUndefined();
  });

  it("hides denied tools from the child and states its depth in its system prompt", async () => {
    const runner = fakeChildRunner();
    const subagents = createSubagents({
      agents: { r: { description: "d", tools: [currentTimeTool(), { ...currentTimeTool(), name: "memory_search" }] } },
      runChild: runner,
      limits: { maxSpawnDepth: 2 },
      slots: new SubagentSlots(),
    });
    await subagents.spawn({ agent: "r", task: "a", mode: "wait" }, callContext({ run: { runId: "p", depth: 0 } }));
    await subagents.spawn({ agent: "r", task: "b", mode: "wait" }, callContext({ run: { runId: "c", depth: 1 } }));
    const [mid, leaf] = runner.requests;
    expect(mid?.tools.map((t) => t.name)).toEqual(["current_time", "spawn_agent", "list_subagents", "cancel_subagent"]);
    expect(mid?.systemPrompt).toMatch(/^You are a sub-agent at depth 1 of 2/);
    expect(mid?.systemPrompt).toMatch(/Tools you may not use: memory_search\./);
    expect(leaf?.tools.map((t) => t.name)).toEqual(["current_time"]);
    expect(leaf?.systemPrompt).toMatch(/depth 2 of 2[\s\S]*You may not start sub-agents of your own/);
    expect(leaf?.run).toMatchObject({ depth: 2, meta: { parentRunId: "c" } });
    expect(leaf?.run.sessionId).toMatch(/^agent:r:sub:2:run_[^:]+:c$/);
  });
});

describe("background runs and delivery", () => {
  it("returns accepted at once and delivers the result to the parent run", async () => {
    const delivered: [string, SubagentResult][] = [];
    const events: SubagentEvent[] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const subagents = createSubagents({
      agents: { r: profile },
      runChild: fakeChildRunner(async (r) => {
        await gate;
        return `answer to ${r.task}`;
      }),
      deliver: (parent, result) => {
        delivered.push([parent, result]);
      },
      onEvent: (e) => events.push(e),
      slots: new SubagentSlots(),
    });
    const out = await subagents.spawn({ agent: "r", task: "dig", mode: "background", label: "digger" }, callContext());
    const { status, runId } = JSON.parse(textOf(out)) as { status: string; runId: string };
    expect(status).toBe("accepted");
    expect(subagents.get(runId)?.status).toBe("running");
    release();
    await vitestWaitFor(() => delivered.length === 1);
    expect(delivered[0]?.[0]).toBe("run-1");
    expect(delivered[0]?.[1]).toMatchObject({
      runId,
      status: "completed",
      text: "answer to dig",
      label: "digger",
      depth: 1,
    });
    expect(events.map((e) => e.type)).toEqual(["subagent_spawned", "subagent_completed"]);
    expect(subagents.get(runId)?.delivered).toBe(true);
  });

  it("keeps a result whose delivery failed and redelivers it", async () => {
    let fail = true;
    const delivered: string[] = [];
    const subagents = createSubagents({
      agents: { r: profile },
      runChild: fakeChildRunner(),
      deliver: (_p, result) => {
        if (fail) throw new Error("store down");
        delivered.push(result.text);
      },
      slots: new SubagentSlots(),
    });
    const out = await subagents.spawn({ agent: "r", task: "x", mode: "background" }, callContext());
    const { runId } = JSON.parse(textOf(out)) as { runId: string };
    await vitestWaitFor(() => subagents.get(runId)?.deliveryError === "store down");
    fail = false;
    expect(await subagents.redeliver()).toBe(1);
    expect(delivered).toEqual(["done: x"]);
  });
});

async function vitestWaitFor(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(check()).toBe(true);
}
