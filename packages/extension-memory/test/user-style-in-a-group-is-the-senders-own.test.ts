import type { GatewayConfigInput } from "@chorus/gateway";
import { type Harness, startHarness } from "@chorus/gateway-testing";
import { SqliteMemoryStore } from "@chorus/memory";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryExtension } from "../src/index.js";

// A guest's style observations in a group are theirs alone: kept in their own user scope, never the group's; a turn's
// line describes only that turn's sender; `/memory style` never shows them to the group.
const CONFIG: GatewayConfigInput = {
  agents: [{ id: "main", model: "fake-model", systemPrompt: "You are Chorus." }],
  channels: [
    {
      channel: "test",
      dmPolicy: "open",
      admins: ["owner"],
      groupPolicy: "open",
      groups: { g1: { requireMention: false, trust: "guest" } },
    },
  ],
};
const inGroup = (id: string, text: string) => ({
  chatType: "group" as const,
  chatId: "g1",
  sender: { id, name: id },
  text,
});

let h: Harness;
const memory = new SqliteMemoryStore({ path: ":memory:" });
beforeAll(async () => {
  h = await startHarness({
    config: CONFIG,
    script: () => "ok",
    gateway: { extensions: [memoryExtension({ store: memory, userModel: true })] },
  });
  for (const text of ["lol ok 😂", "yeah cool 🎉", "haha nope 😅"]) await h.send(inGroup("guest", text));
});
afterAll(async () => {
  await h.close();
  await memory.close();
});

function lastSystemPrompt(): string {
  return h.streamFn.calls.at(-1)?.context.systemPrompt ?? "";
}

describe("the per-user model in a group", () => {
  it("keeps a guest's observations in their own scope, and describes only the turn's sender", async () => {
    expect((await memory.userObservations("user:test:guest")).total).toBe(3);
    expect((await memory.userObservations("group:test:main:g1")).total).toBe(0);

    await h.send(inGroup("guest", "sup"));
    expect(lastSystemPrompt()).toContain("This user prefers short, informal answers; uses emoji.");

    await h.send(inGroup("member", "Good evening. Could you please summarise the plan for tomorrow?"));
    expect(lastSystemPrompt()).toBe("You are Chorus.");
  });

  it("never shows the guest's line to the group, but lets them clear it there", async () => {
    await h.send(inGroup("guest", "/memory style"));
    const answer = h.channel.transcript("g1").at(-1) ?? "";
    expect(answer).toBe("What I noticed about how you write is shown only in a DM with me.");

    await h.send(inGroup("guest", "/memory style clear"));
    expect(h.channel.transcript("g1").at(-1)).toBe("Forgot 4 notes about how you write.");
    expect((await memory.userObservations("user:test:guest")).total).toBe(0);
    expect((await memory.userObservations("user:test:member")).total).toBe(1);
  });
});
