import { defineTool, type StreamContext } from "@chorus/core";
import type { ScriptedTurn } from "@chorus/core/testing";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import type { GatewayExtension, SessionAgentStart } from "../src/extension/index.js";
import { chatTexts, type Harness, startHarness } from "./fixtures/gateway-harness.js";

const SUMMARY_PROMPT = "Summarise for the kept-notes extension.";

/** The text of every message of a model request, joined (reminders included). */
function requestText(context: StreamContext): string {
  return JSON.stringify(context.messages);
}

describe("an extension adds parts to each session's Agent (context, reminders, tools, events)", () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it("the session's Agent carries its tool, its reminder and its context layer; it hears the events and the release", async () => {
    const starts: SessionAgentStart[] = [];
    const events: string[] = [];
    let released = 0;
    const noted: string[] = [];
    const note = defineTool({
      name: "take_note",
      description: "keep a note for this session",
      parameters: z.object({ text: z.string() }),
      category: "info",
      execute: async ({ text }) => {
        noted.push(text);
        return { content: [{ type: "text", text: "noted" }] };
      },
    });
    const notes: GatewayExtension = {
      name: "notes",
      sessionAgent: (start) => {
        starts.push(start);
        return {
          tools: [note],
          reminders: [() => [{ kind: "notes", text: `notes kept: ${String(start.settings.notes ?? "none")}` }]],
          context: (context) => ({ ...context, compaction: { ...context.compaction, summaryPrompt: SUMMARY_PROMPT } }),
          onEvent: (event) => {
            if (event.type === "agent_end" || event.type === "compaction") events.push(event.type);
          },
          release: () => {
            released++;
          },
        };
      },
    };
    const requests: StreamContext[] = [];
    h = await startHarness({
      script: (context: StreamContext): ScriptedTurn => {
        requests.push(context);
        if (context.systemPrompt === SUMMARY_PROMPT) return "Summary: notes were taken.";
        const text = requestText(context);
        if (text.includes('"toolResult"')) return "done";
        return text.includes("note this") ? { toolCalls: [{ name: "take_note", args: { text: "milk" } }] } : "ok";
      },
      config: { agents: [{ id: "main", model: "fake-model" }], channels: [{ channel: "test", admins: ["user-1"] }] },
      gateway: { idleEvictMs: 0, extensions: [notes] },
    });
    await h.send({ text: "note this: buy milk" });
    expect(noted).toEqual(["milk"]);
    expect(chatTexts(h.channel, "dm-user-1").at(-1)).toBe("done");
    expect(requestText(requests[0] as StreamContext)).toContain("notes kept: none");
    expect(events).toEqual(["agent_end"]);
    // Idle eviction let the Agent go: its parts were released.
    expect(released).toBe(1);
    expect(starts).toHaveLength(1);
    expect(starts[0]).toMatchObject({ agentId: "main", settings: {} });
    expect(starts[0]?.model().id).toBe("fake-model");

    // What the extension stored with the session reaches the next Agent built for it.
    const key = starts[0]?.sessionKey as string;
    await h.store.transaction(async (tx) => {
      const session = await tx.getSession(key);
      await tx.updateSession(key, { settings: { ...session?.settings, notes: "milk" } });
    });
    const long = "x ".repeat(12_000);
    await h.send({ text: long });
    expect(starts.at(-1)?.settings).toMatchObject({ notes: "milk" });
    expect(requestText(requests.at(-1) as StreamContext)).toContain("notes kept: milk");

    // Its context layer is the one the compaction runs with.
    await h.send({ text: long });
    await h.send({ text: "/compact" });
    expect(chatTexts(h.channel, "dm-user-1").at(-1)).toMatch(/^Compacted the conversation/);
    expect(requests.some((context) => context.systemPrompt === SUMMARY_PROMPT)).toBe(true);
  });

  it("an extension whose hook throws adds nothing, and the session still answers", async () => {
    h = await startHarness({
      script: () => "still here",
      gateway: {
        extensions: [
          {
            name: "broken",
            sessionAgent: () => {
              throw new Error("broken on purpose");
            },
          },
        ],
      },
    });
    await h.send({ text: "hello" });
    expect(chatTexts(h.channel, "dm-user-1").at(-1)).toBe("still here");
  });
});
