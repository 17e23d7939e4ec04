import { fakeModel } from "@chorus/core/testing";
import { Gateway, GatewayConfigError } from "@chorus/gateway";
import { modelCatalog, startHarness } from "@chorus/gateway-testing";
import { describe, expect, it } from "vitest";
import { contextExtension, UnknownContextModelError } from "../../src/index.js";
import { withCompaction } from "./subgoal-harness.js";

describe("subgoal pruning settings the gateway refuses at start", () => {
  it("two exclusive pruning strategies fail the config, naming both", () => {
    const start = () =>
      new Gateway({
        config: withCompaction({ pruning: ["subgoal", "subgoal_mig"] }),
        store: undefined as never,
        channels: [],
        streamFn: (() => {}) as never,
        models: modelCatalog([fakeModel()]),
      });
    expect(start).toThrow(GatewayConfigError);
    expect(start).toThrow(/subgoal and subgoal_mig are mutually exclusive/);
  });

  it("a subgoal model the catalog does not know fails the start, naming the setting", async () => {
    const started = startHarness({
      config: withCompaction({ pruning: ["subgoal"], subgoalModel: "nope" }),
      gateway: { extensions: [contextExtension({ agents: {} })] },
    });
    await expect(started).rejects.toThrow(UnknownContextModelError);
    await expect(started).rejects.toThrow('agents.main.compaction.subgoalModel: unknown model "nope"');
  });
});
