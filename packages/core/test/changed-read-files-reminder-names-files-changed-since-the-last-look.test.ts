import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent, changedReadFilesReminder, defineTool, type Message, type RecentFile } from "../src/index.js";
import { fakeModel, scriptedStreamFn } from "../src/testing/index.js";

function lastReminder(messages: readonly Message[] | undefined): string {
  const last = messages?.at(-1);
  if (last?.role !== "user" || typeof last.content === "string") return "";
  return last.content.map((part) => (part.type === "text" ? part.text : "")).join("");
}

describe("changed_files for the files a session read (changedReadFilesReminder)", () => {
  it("names a read file whose content changed since the last model call, once, and nothing the first time", async () => {
    const disk = new Map([["notes.md", "v1"]]);
    const asked: (string | undefined)[] = [];
    const source = (run: { sessionId?: string }): RecentFile[] => {
      asked.push(run.sessionId);
      return [...disk].map(([path, content]) => ({ path, content }));
    };
    const streamFn = scriptedStreamFn(["one", "two", "three"]);
    const agent = new Agent({
      model: fakeModel(),
      streamFn,
      reminders: { sources: [changedReadFilesReminder(source, { runId: "", depth: 0, sessionId: "s1" })] },
    });
    await agent.prompt("first");
    disk.set("notes.md", "v2");
    await agent.prompt("second");
    await agent.prompt("third");
    expect(asked).toEqual(["s1", "s1", "s1"]);
    expect(streamFn.calls[0]?.context.messages).toHaveLength(1);
    expect(lastReminder(streamFn.calls[1]?.context.messages)).toContain(
      "These files changed since you last saw them (by the user or a tool); read them again before relying on them:\n- notes.md",
    );
    // Said once: the third call has no new reminder after its prompt.
    expect(lastReminder(streamFn.calls[2]?.context.messages)).toBe("");
  });

  it("stays quiet about a file the agent's own tool call named since the last look (its own write)", async () => {
    const disk = new Map([["notes.md", "v1"]]);
    const source = (): RecentFile[] => [...disk].map(([path, content]) => ({ path, content }));
    const write = defineTool({
      name: "write_file",
      description: "writes a file",
      category: "info",
      parameters: z.object({ path: z.string(), text: z.string() }),
      execute: async ({ text }) => {
        disk.set("notes.md", text);
        return { content: [{ type: "text", text: "written" }] };
      },
    });
    const streamFn = scriptedStreamFn([
      "read it",
      { toolCalls: [{ name: "write_file", args: { text: "v2", path: "notes.md" } }] },
      "written",
      "next",
    ]);
    const agent = new Agent({
      model: fakeModel(),
      streamFn,
      tools: [write],
      reminders: { sources: [changedReadFilesReminder(source, { runId: "", depth: 0 })] },
    });
    await agent.prompt("look");
    await agent.prompt("write it");
    await agent.prompt("and now?");
    for (const call of streamFn.calls) expect(JSON.stringify(call.context.messages)).not.toContain("changed since");
  });
});
