import { describe, expect, it } from "vitest";
import { aiSdk } from "../src/systems/ai-sdk.js";
import { chorus } from "../src/systems/chorus.js";
import type { CoreSystem } from "../src/systems/core-system.js";
import { piAgentCore } from "../src/systems/pi-agent-core.js";
import { streamingTools, streamingToolsAnswer } from "../src/workloads/streaming-tools.js";
import { TOOL_ROUND_TRIP_ANSWER, toolRoundTrip } from "../src/workloads/tool-round-trip.js";

// The benchmark compares systems only if each one really plays the same workload: the
// scripted model's final answer quotes the tool results it was sent back, so an equal
// answer proves the tool ran, its result reached the model, and results kept call order.
const systems: CoreSystem[] = [chorus, piAgentCore, aiSdk];

// B is called after A but finishes first: the answer must still list A before B.
const SHORT_TIMING = { callAAtMs: 5, toolAMs: 40, callBAtMs: 20, toolBMs: 5 };

describe.each(systems.map((system) => [system.name, system] as const))(
  "%s plays the bench workloads",
  (_name, system) => {
    it("W1: answers with the lookup tool's result", async () => {
      const run = system.prepare(toolRoundTrip);
      expect(await run()).toBe(TOOL_ROUND_TRIP_ANSWER);
      // A prepared runner is reused 2 000 times by the bench; a second run must start clean.
      expect(await run()).toBe(TOOL_ROUND_TRIP_ANSWER);
    });

    it("W2: answers with both tool results in the model's call order", async () => {
      const run = system.prepare(streamingTools(SHORT_TIMING));
      expect(await run()).toBe(streamingToolsAnswer(SHORT_TIMING));
    });
  },
);
