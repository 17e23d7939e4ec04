import { afterEach, describe, expect, it } from "vitest";
import { modelFallbackText } from "../src/compaction/compaction-status-line.js";
import { BASE_CONFIG, type Harness, MODELS, startHarness } from "./fixtures/gateway-harness.js";

const OVERLOADED = { fault: "error" as const, error: { kind: "overloaded" as const, message: "busy", status: 529 } };

describe("AgentRuntimeSetup.loop: an agent's own loop settings", () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  it("falls back to the agent's fallback model and shows the move in the chat", async () => {
    h = await startHarness({
      script: [OVERLOADED, "from the large one"],
      gateway: { agents: { main: { loop: { fallbackModels: [MODELS[1]!], fallbackImmediately: true } } } },
    });
    await h.send({ text: "hi" });
    expect(h.streamFn.calls.map((call) => call.model.id)).toEqual(["fake-model", "fake-large"]);
    expect(h.channel.transcript("dm-user-1")).toEqual([
      "🔀 fake-model did not answer (overloaded); continuing with fake-large.",
      "from the large one",
    ]);
  });

  it("is the agent's own: another agent of the same gateway keeps the gateway-wide settings", async () => {
    h = await startHarness({
      script: () => ({ toolCalls: [{ name: "nothing_here" }] }),
      config: {
        ...BASE_CONFIG,
        agents: [
          { id: "main", model: "fake-model" },
          { id: "other", model: "fake-model" },
        ],
        bindings: [{ agentId: "other", match: { channel: "test", peer: "user-2" } }],
      },
      gateway: { loop: { maxTurns: 4 }, agents: { main: { loop: { maxTurns: 2 } } } },
    });
    await h.send({ text: "loop", sender: { id: "user-1" } });
    expect(h.streamFn.calls).toHaveLength(2);
    await h.send({ text: "loop", sender: { id: "user-2" } });
    expect(h.streamFn.calls).toHaveLength(6);
  });

  it("words the fallback line from the loop's reason: the error kind, or the stall", () => {
    const [from, to] = [MODELS[0]!, MODELS[1]!];
    expect(modelFallbackText({ from, to, reason: "rate_limited: slow down" })).toBe(
      "🔀 fake-model did not answer (rate_limited); continuing with fake-large.",
    );
    expect(modelFallbackText({ from, to, reason: "the stream stalled" })).toBe(
      "🔀 fake-model did not answer (the stream stalled); continuing with fake-large.",
    );
  });
});
