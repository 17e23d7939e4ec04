import { FocusConfigError } from "@chorus/core";
import { startHarness } from "@chorus/gateway-testing";
import { describe, expect, it } from "vitest";
import { contextExtension, contextSettingsSchema, ExclusiveCompressionStrategiesError } from "../../src/index.js";

const AGENTS = { main: contextSettingsSchema.parse({ focus: { enabled: true } }) };

describe("focus settings the gateway refuses at start", () => {
  it("a window of 0 given without the schema is a start-up error naming the setting", async () => {
    const agents = {
      main: {
        focus: { enabled: true, autoConsolidateMinWindow: 0, similarityThreshold: 0.5, maxKnowledgeChars: 8000 },
      },
    };
    const started = startHarness({ gateway: { extensions: [contextExtension({ agents })] } });
    await expect(started).rejects.toThrow(FocusConfigError);
    await expect(started).rejects.toThrow(/focus\.autoConsolidateMinWindow must be a whole number of at least 1/);
  });

  it("focus with subgoal pruning is a start-up error naming both", async () => {
    const started = startHarness({
      config: {
        agents: [{ id: "main", model: "fake-model", compaction: { pruning: ["subgoal_mig"] } }],
        channels: [{ channel: "test", dmPolicy: "open" }],
      },
      gateway: { extensions: [contextExtension({ agents: AGENTS })] },
    });
    await expect(started).rejects.toThrow(ExclusiveCompressionStrategiesError);
    await expect(started).rejects.toThrow(
      'agent "main": the focus strategy (context.focus) and subgoal pruning (compaction.pruning: subgoal_mig) are mutually exclusive',
    );
  });
});
