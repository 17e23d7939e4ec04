import { defineTool } from "@chorus/core";
import type { GatewayConfigInput } from "@chorus/gateway";
import { HARNESS_CONFIG as BASE_CONFIG } from "@chorus/gateway-testing";
import { MemorySessionStore } from "@chorus/store";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { goalOf } from "../src/goals/goal-record.js";
import { type AutonomyHarness as Harness, startAutonomyHarness as startHarness } from "./fixtures/autonomy-harness.js";
import { contentText, goalScript } from "./fixtures/goal-script.js";

const KEY = "main:main:test:dm:user-1";
const DM = "dm-user-1";

/** A tool that does nothing, so a turn can call one. */
const noop = defineTool({
  name: "noop",
  description: "does nothing",
  parameters: z.object({}),
  category: "info",
  execute: async () => ({ content: [{ type: "text", text: "ok" }] }),
});

/** The model: "finish" → "Task complete." without tools; "finish with a tool" → noop, then "Done."; else echo. */
function lifecycleScript() {
  const base = goalScript();
  return (context: Parameters<typeof base>[0]) => {
    const last = context.messages.at(-1) as { role: string; content: unknown };
    if (last.role === "toolResult") return "Done.";
    const said = contentText(last.content);
    if (said === "finish") return "Task complete.";
    if (said === "wrap up") return "We are all set.";
    if (said === "finish with a tool") return { toolCalls: [{ name: "noop", args: {} }] };
    return base(context);
  };
}

async function storedGoal(h: Harness) {
  const session = await h.store.getSession(KEY);
  return session === undefined ? undefined : goalOf(session.settings);
}

describe("goal lifecycle: Idle → Active → Completed, stored with the session", () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it("/goal sets and shows the goal; a phrase in a turn without tool calls completes it as a status line", async () => {
    h = await startHarness({ script: lifecycleScript(), gateway: { agents: { main: { tools: [noop] } } } });
    await h.send({ text: "/goal" });
    expect(h.channel.transcript(DM).at(-1)).toBe("No goal is set. Set one with /goal <text>.");
    await h.send({ text: "/goal write the release notes" });
    expect(h.channel.transcript(DM).at(-1)).toContain("Goal set: write the release notes.");
    expect(await storedGoal(h)).toMatchObject({ text: "write the release notes", status: "active", setBy: "user-1" });
    await h.send({ text: "/goal" });
    expect(h.channel.transcript(DM).at(-1)).toContain("**Goal**: write the release notes");

    await h.send({ text: "hello" });
    expect((await storedGoal(h))?.status).toBe("active");
    // The goal never reaches the model: it is not in the system prompt nor the messages.
    expect(JSON.stringify(h.streamFn.calls.at(-1)!.context)).not.toContain("release notes");

    await h.send({ text: "finish" });
    expect(h.channel.transcript(DM).slice(-2)).toEqual([
      "Task complete.",
      "✓ Goal completed: write the release notes (the agent said so)",
    ]);
    expect(await storedGoal(h)).toMatchObject({ status: "completed", completedBy: "phrase" });
    // A status line, not a message of the conversation.
    const transcript = await h.store.readTranscript(KEY);
    expect(JSON.stringify(transcript)).not.toContain("Goal completed");
  });

  it("a completion phrase in a turn that called a tool does not complete the goal", async () => {
    h = await startHarness({ script: lifecycleScript(), gateway: { agents: { main: { tools: [noop] } } } });
    await h.send({ text: "/goal tidy the inbox", sender: { id: "admin", name: "Admin" } });
    await h.send({ text: "finish with a tool", sender: { id: "admin", name: "Admin" } });
    expect(h.channel.transcript("dm-admin").at(-1)).toBe("Done.");
    const session = await h.store.getSession("main:main:test:dm:admin");
    expect(goalOf(session!.settings)?.status).toBe("active");
  });

  it("/done completes it, /clear returns to Idle, and both are refused when there is nothing to do", async () => {
    h = await startHarness({ script: lifecycleScript() });
    await h.send({ text: "/done" });
    expect(h.channel.transcript(DM).at(-1)).toBe("No active goal to complete. /goal <text> sets one.");
    await h.send({ text: "/goal plan the offsite" });
    await h.send({ text: "/done" });
    expect(h.channel.transcript(DM).at(-1)).toBe("✓ Goal completed: plan the offsite (/done)");
    expect(await storedGoal(h)).toMatchObject({ status: "completed", completedBy: "command" });
    await h.send({ text: "/clear" });
    expect(h.channel.transcript(DM).at(-1)).toBe("Goal cleared: plan the offsite");
    expect(await storedGoal(h)).toBeUndefined();
    await h.send({ text: "/clear" });
    expect(h.channel.transcript(DM).at(-1)).toBe("There is no goal to clear.");
  });

  it("keeps the goal across a restart and leaves the session's other settings alone", async () => {
    const store = new MemorySessionStore();
    h = await startHarness({ store, script: lifecycleScript() });
    await h.send({ text: "/goal ship 1.0" });
    await h.send({ text: "hello" });
    await h.send({ text: "/compact" });
    await h.close();
    h = await startHarness({ store, script: lifecycleScript() });
    await h.send({ text: "/goal", messageId: "again-1" });
    expect(h.channel.transcript(DM).at(-1)).toContain("**Goal**: ship 1.0");
    const session = await store.getSession(KEY);
    expect(session?.settings.goal).toBeDefined();
    await h.send({ text: "/new", messageId: "again-2" });
    expect(await storedGoal(h)).toBeUndefined();
  });

  it("puts the goal where the system prompt says {current_goal} only when trackInSystemPrompt is on", async () => {
    const config = (track: boolean): GatewayConfigInput => ({
      ...BASE_CONFIG,
      agents: [
        {
          id: "main",
          model: "fake-model",
          systemPrompt: "Help. Goal: {current_goal}.",
          goals: { trackInSystemPrompt: track },
        },
      ],
    });
    h = await startHarness({ script: lifecycleScript(), config: config(true) });
    await h.send({ text: "hi" });
    expect(h.streamFn.calls.at(-1)!.context.systemPrompt).toBe("Help. Goal: .");
    await h.send({ text: "/goal learn Rust" });
    await h.send({ text: "hi again" });
    expect(h.streamFn.calls.at(-1)!.context.systemPrompt).toBe("Help. Goal: learn Rust.");
    await h.close();

    h = await startHarness({ script: lifecycleScript(), config: config(false) });
    await h.send({ text: "/goal learn Rust" });
    await h.send({ text: "hi" });
    expect(h.streamFn.calls.at(-1)!.context.systemPrompt).toBe("Help. Goal: .");
  });

  it("custom completion phrases replace the defaults", async () => {
    h = await startHarness({
      script: lifecycleScript(),
      config: {
        ...BASE_CONFIG,
        agents: [{ id: "main", model: "fake-model", goals: { completionPhrases: ["all set"] } }],
      },
    });
    await h.send({ text: "/goal book flights" });
    await h.send({ text: "finish" });
    expect((await storedGoal(h))?.status).toBe("active");
    await h.send({ text: "wrap up" });
    expect(await storedGoal(h)).toMatchObject({ status: "completed", completedBy: "phrase" });
  });
});
