import { fakeModel, scriptedStreamFn } from "@chorus/core/testing";
import { describe, expect, it } from "vitest";
import { type ChildRunRequest, coreChildRunner } from "../src/index.js";

function request(overrides: Partial<ChildRunRequest> = {}): ChildRunRequest {
  return {
    agent: "researcher",
    profile: { description: "reads and answers", tools: [] },
    run: { runId: "child-1", depth: 1 },
    systemPrompt: "You are a sub-agent.",
    task: "say done",
    tools: [],
    preDispatchPolicies: [],
    signal: new AbortController().signal,
    ...overrides,
  };
}

describe("coreChildRunner from the package entry point (as the README shows it)", () => {
  it("runs a child on the core loop and returns its final text", async () => {
    const streamFn = scriptedStreamFn(["child done"]);
    const outcome = await coreChildRunner({ model: fakeModel(), streamFn })(request());
    expect(outcome).toMatchObject({ status: "completed", text: "child done" });
    expect(streamFn.calls[0]?.context.systemPrompt).toBe("You are a sub-agent.");
  });

  it("reports a child without a model as failed instead of throwing", async () => {
    const outcome = await coreChildRunner()(request());
    expect(outcome).toMatchObject({ status: "failed", text: 'No model configured for sub-agent "researcher".' });
  });
});
