import type { RecentFile } from "@chorus/core";
import { describe, expect, it } from "vitest";
import { BASE_CONFIG, startHarness } from "./fixtures/gateway-harness.js";

const CHANGED = "These files changed since you last saw them";

/** A chat whose session "read" notes.md (as the bot's read_file reports it); the file changes between two messages. */
async function chatAcrossAChange(reminders?: Record<string, unknown>) {
  const disk = new Map([["notes.md", "remember the milk"]]);
  const recentFiles = (): RecentFile[] => [...disk].map(([path, content]) => ({ path, content }));
  const h = await startHarness({
    config: { ...BASE_CONFIG, agents: [{ id: "main", model: "fake-model", ...(reminders ? { reminders } : {}) }] },
    script: ["ok", "ok", "ok"],
    gateway: { agents: { main: { recentFiles } } },
  });
  await h.send({ text: "read my notes" });
  disk.set("notes.md", "remember the eggs");
  await h.send({ text: "what do they say now?" });
  await h.send({ text: "and now?" });
  const requests = h.streamFn.calls.map((call) => JSON.stringify(call.context.messages.at(-1)));
  await h.close();
  return requests;
}

describe("changed_files in the gateway (agents[].reminders.changedFiles, on by default)", () => {
  it("the request after a read file changed carries the reminder naming it, once", async () => {
    const requests = await chatAcrossAChange();
    expect(requests).toHaveLength(3);
    expect(requests[0]).not.toContain(CHANGED);
    expect(requests[1]).toContain(CHANGED);
    expect(requests[1]).toContain("- notes.md");
    expect(requests[2]).not.toContain(CHANGED);
  });

  it("says nothing when switched off", async () => {
    const requests = await chatAcrossAChange({ changedFiles: false });
    for (const request of requests) expect(request).not.toContain(CHANGED);
  });
});
