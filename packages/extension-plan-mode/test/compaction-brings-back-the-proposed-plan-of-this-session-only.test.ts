import { DEFAULT_SUMMARY_PROMPT, RESTORED_PLAN_HEADING, type StreamContext } from "@chorus/core";
import { type Harness, startHarness } from "@chorus/gateway-testing";
import { afterEach, describe, expect, it, vi } from "vitest";
import { PLAN_MODE_FULL_REMINDER, PLAN_MODE_SPARSE_REMINDER, planModeExtension } from "../src/index.js";

const config = {
  agents: [{ id: "main", model: "fake-model" }],
  channels: [
    {
      channel: "test",
      admins: ["owner"],
      dmPolicy: "open" as const,
      groups: { team: { requireMention: false, trust: "guest" as const } },
    },
  ],
};
const owner = { chatType: "dm" as const, chatId: "owner", sender: { id: "owner", name: "Owner" } };
const guest = { chatType: "group" as const, chatId: "team", sender: { id: "guest", name: "Guest" } };
const ownerInGroup = { ...guest, sender: { id: "owner", name: "Owner" } };
const PLAN = "1. split the parser SECRET-STEP";
const long = "x ".repeat(12_000);

/** Proposes PLAN when asked to refactor; acknowledges a rejection; summarises; else answers "ok". */
function script(context: StreamContext) {
  if (context.systemPrompt === DEFAULT_SUMMARY_PROMPT) return "Summary: the parser was discussed.";
  // The newest message may be a system reminder: look at what the person or a tool said last.
  const last = JSON.stringify(context.messages.findLast((m) => (m as { isMeta?: boolean }).isMeta !== true));
  if (last.includes("rejected the plan")) return "I will revise it.";
  if (last.includes("refactor the parser")) return { toolCalls: [{ name: "propose_plan", args: { plan: PLAN } }] };
  return "ok";
}

describe("a compaction brings back the plan the session proposed in plan mode, and no other session's", () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  async function withRejectedPlan() {
    h = await startHarness({
      config,
      script,
      gateway: { rateCap: false, extensions: [planModeExtension({ agents: ["main"] })] },
    });
    const harness = h;
    await harness.send({ ...owner, text: "/plan" });
    await harness.channel.inject({ ...owner, text: "refactor the parser" });
    await vi.waitFor(() => expect(harness.channel.transcript("owner").join("\n")).toContain("Proposed plan"), {
      timeout: 5_000,
    });
    await harness.send({ ...owner, text: "/plan reject keep the old API" });
    await harness.gateway.idle();
    return harness;
  }

  it("after /compact the next request carries the plan and that it was rejected, with the feedback", async () => {
    const harness = await withRejectedPlan();
    for (const text of [long, long, "short"]) await harness.send({ ...owner, text });
    await harness.send({ ...owner, text: "/compact" });
    await harness.send({ ...owner, text: "where were we?" });
    const first = JSON.stringify(harness.streamFn.calls.at(-1)?.context.messages[0]);
    expect(first).toContain("Summary: the parser was discussed.");
    expect(first).toContain(RESTORED_PLAN_HEADING);
    expect(first).toContain("SECRET-STEP");
    expect(first).toContain("the user rejected it: keep the old API");
  });

  it("after plan mode is left, a compaction brings back no plan", async () => {
    const harness = await withRejectedPlan();
    await harness.send({ ...owner, text: "/plan off" });
    for (const text of [long, long, "short"]) await harness.send({ ...owner, text });
    await harness.send({ ...owner, text: "/compact" });
    await harness.send({ ...owner, text: "where were we?" });
    const first = JSON.stringify(harness.streamFn.calls.at(-1)?.context.messages[0]);
    expect(first).toContain("Summary: the parser was discussed.");
    expect(first).not.toContain("SECRET-STEP");
  });

  it("a guest's group session, beside a DM in plan mode, never gets its reminder or its plan", async () => {
    const harness = await withRejectedPlan();
    const before = harness.streamFn.calls.length;
    for (const text of ["hello", long, long, "short"]) await harness.send({ ...guest, text });
    await harness.send({ ...ownerInGroup, text: "/compact" });
    await harness.send({ ...guest, text: "what is the plan?" });
    const groupCalls = harness.streamFn.calls.slice(before);
    expect(groupCalls.length).toBeGreaterThanOrEqual(5);
    for (const call of groupCalls) {
      const sent = JSON.stringify(call.context.messages);
      expect(sent).not.toContain("SECRET-STEP");
      expect(sent).not.toContain(PLAN_MODE_FULL_REMINDER.slice(0, 30));
      expect(sent).not.toContain(PLAN_MODE_SPARSE_REMINDER.slice(0, 30));
    }
    // The group's compaction did run: its summary is in the last request.
    expect(JSON.stringify(groupCalls.at(-1)?.context.messages[0])).toContain("Summary: the parser was discussed.");
  });
});
