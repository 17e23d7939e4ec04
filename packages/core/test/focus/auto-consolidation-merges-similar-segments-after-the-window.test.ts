import { monitorEventLoopDelay } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import {
  Agent,
  type AgentEvent,
  FOCUS_KNOWLEDGE_PREFIX,
  FocusConfigError,
  FocusState,
  FocusStrategy,
  similarGroups,
} from "../../src/index.js";
import { fakeModel, scriptedStreamFn } from "../../src/testing/index.js";
import { allText, outline } from "./support.js";

const NOTES = [
  { scope: "database setup", knowledge: "The database migrations live in db/migrations and run with pnpm migrate." },
  { scope: "logging", knowledge: "Logs are written by pino to stdout as JSON lines." },
  {
    scope: "database migrations",
    knowledge: "The database migrations live in db/migrations and run with pnpm migrate.\nSeeds are in db/seeds.",
  },
];

/** One turn per note: open a focus, close it with the note, answer. */
function script() {
  const turns = NOTES.flatMap((note, i) => [
    { toolCalls: [{ name: "start_focus", id: `s${i}`, args: { scope: note.scope } }] },
    { toolCalls: [{ name: "complete_focus", id: `c${i}`, args: { knowledge: note.knowledge } }] },
    `noted ${i}`,
  ]);
  return scriptedStreamFn([...turns, "first answer after the window", "second answer"]);
}

const agentEnd: AgentEvent = { type: "agent_end", messages: [], reason: "completed", usage: {} as never };

describe("auto-consolidation merges similar closed segments after autoConsolidateMinWindow turns", () => {
  it("merges the similar ones and not the dissimilar one, only once the window has passed", async () => {
    const streamFn = script();
    const focus = new FocusStrategy({ autoConsolidateMinWindow: 4 });
    const agent = new Agent({ model: fakeModel(), streamFn, tools: focus.tools, context: focus.applyTo({}) });
    agent.subscribe((event) => focus.onEvent(event));
    for (const prompt of ["one", "two", "three"]) await agent.prompt(prompt);
    await focus.settled();
    expect(focus.state.live()).toHaveLength(3); // 3 turns < 4: no consolidation yet
    expect(focus.state.turnsSinceConsolidation).toBe(3);

    await agent.prompt("four");
    await focus.settled();
    const live = focus.state.live();
    expect(live.map((s) => s.scope)).toEqual(["logging", "database setup; database migrations"]);
    expect(live[1]?.knowledge).toBe(
      "The database migrations live in db/migrations and run with pnpm migrate.\nSeeds are in db/seeds.",
    );
    expect(focus.state.turnsSinceConsolidation).toBe(0);

    await agent.prompt("five");
    const sent = streamFn.calls.at(-1)?.context.messages ?? [];
    const knowledge = outline(sent).filter((line) => line.includes(FOCUS_KNOWLEDGE_PREFIX));
    expect(knowledge).toEqual([
      `user: ${FOCUS_KNOWLEDGE_PREFIX}2] logging`,
      `user: ${FOCUS_KNOWLEDGE_PREFIX}3] database setup; database migrations`,
    ]);
    expect(allText(sent).match(/db\/migrations/g)?.length).toBe(1); // the repeated line is kept once
  });

  it("refuses autoConsolidateMinWindow 0 (and negatives or fractions) at construction with a typed error", () => {
    expect(() => new FocusStrategy({ autoConsolidateMinWindow: 0 })).toThrow(FocusConfigError);
    expect(() => new FocusStrategy({ autoConsolidateMinWindow: 0 })).toThrow(
      /focus\.autoConsolidateMinWindow must be a whole number of at least 1.*got 0/,
    );
    expect(() => new FocusStrategy({ autoConsolidateMinWindow: -2 })).toThrow(FocusConfigError);
    expect(() => new FocusStrategy({ autoConsolidateMinWindow: 1.5 })).toThrow(FocusConfigError);
    expect(new FocusStrategy().settings.autoConsolidateMinWindow).toBe(4);
  });

  it("scores 2 000 segments in slices that let timers run, and the turn that triggers it does not wait", async () => {
    const state = new FocusState();
    for (let i = 0; i < 2_000; i++) {
      state.start(`topic ${i}`, `s${i}`);
      // Distinct words per segment: the worst case, every pair scored, nothing merges.
      state.complete(`finding ${i}: alpha${i} beta${i} gamma${i} delta${i} epsilon${i} zeta${i} eta${i}`, `c${i}`);
    }
    for (let i = 0; i < 3; i++) state.turnEnded();
    const slices: number[] = [];
    const focus = new FocusStrategy({
      state,
      autoConsolidateMinWindow: 4,
      scoring: { onSlice: (ms) => slices.push(ms) },
    });
    // A 1 ms timer stands for everything else the process serves: a pass that blocked would let it tick once at most.
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const histogram = monitorEventLoopDelay({ resolution: 1 });
    histogram.enable();
    focus.onEvent(agentEnd);
    let done = false;
    const settled = focus.settled().then(() => {
      done = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(done).toBe(false); // the turn's event returned while the pass still runs in the background
    await settled;
    histogram.disable();
    clearInterval(timer);
    expect(focus.state.live()).toHaveLength(2_000);
    expect(slices.length).toBeGreaterThan(10); // the scoring yielded between slices…
    expect(ticks).toBeGreaterThan(10); // …and the timer kept firing meanwhile
    // Wall-clock numbers on a shared machine include the OS pausing the process: reported, not asserted tightly.
    expect(histogram.max / 1e6).toBeLessThan(1_000);
  }, 60_000);

  it("groups by similarity to a group's first member, so a chain of small overlaps does not merge unrelated notes", async () => {
    const groups = await similarGroups(["red green blue", "green blue yellow", "blue yellow purple"], 0.5);
    expect(groups).toEqual([[0, 1], [2]]);
  });
});
