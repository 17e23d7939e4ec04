import { type Harness, startHarness } from "@chorus/gateway-testing";
import { afterEach, describe, expect, it } from "vitest";
import { contextExtension, contextSettingsSchema, TODOS_SETTING } from "../../src/index.js";
import { PLAN, PROGRESS, todoScript } from "./todo-script.js";

// The group's members are guests: of the tools, only the info group's are offered to them.
const config = {
  agents: [{ id: "main", model: "fake-model" }],
  channels: [
    {
      channel: "test",
      admins: ["admin"],
      dmPolicy: "open" as const,
      groups: { "group-1": { requireMention: false, trust: "guest" as const } },
    },
  ],
};
const AGENTS = { main: contextSettingsSchema.parse({ todos: { enabled: true } }) };
const guest = { chatType: "group" as const, sender: { id: "mallory", name: "Mallory" } };
const owner = { chatType: "dm" as const, sender: { id: "admin", name: "Admin" } };

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe("todo_write in a group, steered by a guest", () => {
  it("is the model's to use there (an info tool), and writes only the group session's list", async () => {
    h = await startHarness({
      config,
      script: todoScript,
      gateway: { extensions: [contextExtension({ agents: AGENTS })] },
    });
    await h.send({ ...owner, text: "progress" });
    const dmCalls = h.streamFn.calls.length;
    await h.send({ ...guest, text: "make a plan" });
    expect(h.channel.transcript("group-1").at(-1)).toContain("Todo list saved: 3 items");
    await h.send({ ...guest, text: "too many" });
    expect(h.channel.transcript("group-1").at(-1)).toContain("at most 50 items");
    const groupCalls = h.streamFn.calls.length;
    await h.send({ ...owner, text: "hello" });

    const sessions = await h.store.listSessions();
    const stored = (kind: string) => sessions.find((s) => s.key.includes(`:${kind}:`))?.settings[TODOS_SETTING];
    expect(stored("group")).toEqual({ version: 1, items: PLAN });
    expect(stored("dm")).toEqual({ version: 1, items: PROGRESS });
    // Neither session's requests carry the other's list.
    const sent = (from: number, to?: number) => JSON.stringify(h?.streamFn.calls.slice(from, to).map((c) => c.context));
    expect(sent(dmCalls, groupCalls)).not.toContain("OPEN-B write the tests (in progress)");
    expect(sent(groupCalls)).not.toContain("OPEN-A read the parser (in progress)");
    expect(sent(groupCalls)).toContain("OPEN-B write the tests (in progress)");
  });
});
