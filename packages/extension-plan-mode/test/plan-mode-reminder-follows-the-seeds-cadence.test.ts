import type { Message } from "@chorus/core";
import { startHarness } from "@chorus/gateway-testing";
import { describe, expect, it, vi } from "vitest";
import {
  PLAN_MODE_EXIT_REMINDER,
  PLAN_MODE_FULL_REMINDER,
  PLAN_MODE_SPARSE_REMINDER,
  planModeExtension,
} from "../src/index.js";

const config = {
  agents: [{ id: "main", model: "fake-model" }],
  channels: [{ channel: "test", admins: ["owner"] }],
};
const owner = { chatType: "dm" as const, chatId: "owner", sender: { id: "owner", name: "Owner" } };

/** What plan-mode reminder the request's newest message is: "full", "sparse", "exit" or "-" (none). */
function reminderOf(message: Message | undefined): string {
  const text = JSON.stringify(message ?? "");
  if (text.includes(JSON.stringify(PLAN_MODE_FULL_REMINDER).slice(1, 40))) return "full";
  if (text.includes(JSON.stringify(PLAN_MODE_SPARSE_REMINDER).slice(1, 40))) return "sparse";
  if (text.includes(PLAN_MODE_EXIT_REMINDER)) return "exit";
  return "-";
}

describe("the plan-mode reminder before model calls (seed 004: every 5 prompts, every 5th one full)", () => {
  it("is full on plan mode's first prompt, sparse every 5 prompts after, full again on the 6th; once 'off' when left", async () => {
    const h = await startHarness({
      config,
      script: () => "ok",
      gateway: { rateCap: false, extensions: [planModeExtension({ agents: ["main"] })] },
    });
    await h.send({ ...owner, text: "before plan mode" });
    await h.send({ ...owner, text: "/plan" });
    for (let i = 1; i <= 27; i++) await h.send({ ...owner, text: `question ${i}` });
    await h.send({ ...owner, text: "/plan off" });
    await h.send({ ...owner, text: "after" });
    await h.send({ ...owner, text: "and after" });
    const seen = h.streamFn.calls.map((call) => reminderOf(call.context.messages.at(-1)));
    await h.close();

    const expected = ["-"];
    for (let prompt = 1; prompt <= 27; prompt++) {
      if (prompt === 1 || prompt === 26) expected.push("full");
      else expected.push((prompt - 1) % 5 === 0 ? "sparse" : "-");
    }
    expected.push("exit", "-");
    expect(seen).toEqual(expected);
  });

  it("an approved plan ends it without an extra 'off' reminder; entering plan mode again starts with a full one", async () => {
    const h = await startHarness({
      config,
      script: (context) => {
        // The newest message may be a system reminder: answer what the person or a tool said last.
        const last = context.messages.findLast((m) => (m as { isMeta?: boolean }).isMeta !== true);
        if (last?.role === "toolResult") return "carrying it out";
        return JSON.stringify(last).includes('"refactor"')
          ? { toolCalls: [{ name: "propose_plan", args: { plan: "1. refactor" } }] }
          : "ok";
      },
      gateway: { rateCap: false, extensions: [planModeExtension({ agents: ["main"] })] },
    });
    await h.send({ ...owner, text: "/plan" });
    await h.channel.inject({ ...owner, text: "refactor" });
    await vi.waitFor(() => expect(h.channel.transcript("owner").join("\n")).toContain("Proposed plan"), {
      timeout: 5_000,
    });
    await h.send({ ...owner, text: "/plan approve" });
    await h.gateway.idle();
    await h.send({ ...owner, text: "thanks" });
    await h.send({ ...owner, text: "/plan" });
    await h.send({ ...owner, text: "next task" });
    const seen = h.streamFn.calls.map((call) => reminderOf(call.context.messages.at(-1)));
    await h.close();
    // refactor (full) → after the approval → thanks → next task (full again).
    expect(seen).toEqual(["full", "-", "-", "full"]);
  });

  it("an agent without plan mode never gets it", async () => {
    const h = await startHarness({
      config,
      script: () => "ok",
      gateway: { extensions: [planModeExtension({ agents: [] })] },
    });
    await h.send({ ...owner, text: "/plan" });
    await h.send({ ...owner, text: "hello" });
    const seen = h.streamFn.calls.map((call) => reminderOf(call.context.messages.at(-1)));
    await h.close();
    expect(seen).toEqual(["-"]);
  });
});
