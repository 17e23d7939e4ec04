import { describe, expect, it } from "vitest";
import { Agent, FocusState, FocusStateError, FocusStrategy, type ToolResultMessage } from "../../src/index.js";
import { fakeModel, scriptedStreamFn } from "../../src/testing/index.js";
import { textOf } from "../support/test-tools.js";

async function resultsOf(calls: { name: string; args: Record<string, unknown> }[][], focus = new FocusStrategy()) {
  const streamFn = scriptedStreamFn([
    ...calls.map((batch) => ({ toolCalls: batch.map((c, i) => ({ ...c, id: `${c.name}-${i}-${Math.random()}` })) })),
    "ok",
  ]);
  const agent = new Agent({ model: fakeModel(), streamFn, tools: focus.tools, context: focus.applyTo({}) });
  await agent.prompt("go");
  const results = agent.state.messages.filter((m) => (m as { role: string }).role === "toolResult");
  return { focus, results: results as ToolResultMessage[] };
}

describe("the focus tools answer bad input with clear errors and change nothing", () => {
  it("refuses a second open while one is open (segments do not nest)", async () => {
    const { focus, results } = await resultsOf([
      [{ name: "start_focus", args: { scope: "a" } }],
      [{ name: "start_focus", args: { scope: "b" } }],
    ]);
    expect(results[1]?.isError).toBe(true);
    expect(textOf(results[1])).toContain('A focus is already open ("a")');
    expect(focus.state.open?.scope).toBe("a");
  });

  it("refuses a close with none open", async () => {
    const { focus, results } = await resultsOf([[{ name: "complete_focus", args: { knowledge: "x" } }]]);
    expect(results[0]?.isError).toBe(true);
    expect(textOf(results[0])).toBe("No focus is open: call start_focus before complete_focus.");
    expect(focus.state.closed).toHaveLength(0);
  });

  it("refuses knowledge over the cap whole (never cut silently) and keeps the focus open", async () => {
    const focus = new FocusStrategy({ maxKnowledgeChars: 100 });
    const { results } = await resultsOf(
      [
        [{ name: "start_focus", args: { scope: "a" } }],
        [{ name: "complete_focus", args: { knowledge: "k".repeat(101) } }],
      ],
      focus,
    );
    expect(results[1]?.isError).toBe(true);
    expect(textOf(results[1])).toContain("The knowledge is 101 characters; at most 100 are kept.");
    expect(focus.state.open?.scope).toBe("a");
    expect(focus.state.closed).toHaveLength(0);
  });

  it("refuses an empty scope or knowledge, and flattens a long multi-line scope to one bounded line", async () => {
    const { focus, results } = await resultsOf([
      [{ name: "start_focus", args: { scope: "  \n " } }],
      [{ name: "start_focus", args: { scope: `line one\nline two ${"y".repeat(500)}` } }],
      [{ name: "complete_focus", args: { knowledge: "   " } }],
    ]);
    expect(textOf(results[0])).toContain("The scope is empty");
    expect(results[1]?.isError).toBeFalsy();
    expect(textOf(results[2])).toContain("The knowledge is empty");
    expect(focus.state.open?.scope.startsWith("line one line two y")).toBe(true);
    expect(focus.state.open?.scope).toHaveLength(200);
  });

  it("a stored snapshot that is not one is a typed error; a good one round-trips", () => {
    expect(() => FocusState.restore({ version: 2 })).toThrow(FocusStateError);
    expect(() => FocusState.restore("nonsense")).toThrow(FocusStateError);
    const state = new FocusState();
    state.start("a", "s1");
    state.complete("knowledge a", "c1");
    state.start("b", "s2");
    state.turnEnded();
    const back = FocusState.restore(JSON.parse(JSON.stringify(state.snapshot())));
    expect(back.snapshot()).toEqual(state.snapshot());
    back.complete("knowledge b", "c2");
    expect(back.closed.map((s) => s.id)).toEqual([1, 2]);
  });
});
