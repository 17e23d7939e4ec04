import type { StreamContext } from "@chorus/core";
import type { Script } from "@chorus/core/testing";
import { type Harness, startHarness } from "@chorus/gateway-testing";
import { MemorySessionStore, type SessionStore } from "@chorus/store";
import { afterEach, describe, expect, it, vi } from "vitest";
import { planModeExtension } from "../src/plan-mode-extension.js";
import { PLAN_MODE_SETTING } from "../src/stored-plan-mode.js";
import { execProbe } from "./fixtures/exec-probe.js";

const config = {
  agents: [{ id: "main", model: "fake-model" }],
  channels: [
    {
      channel: "test",
      admins: ["owner"],
      dmPolicy: "open" as const,
      groups: { team: { requireMention: false, trust: "trusted" as const } },
    },
  ],
};
const owner = { chatType: "dm" as const, chatId: "owner", sender: { id: "owner", name: "Owner" } };

/** Tries `exec` for a request, proposes a plan when plan mode refuses it, runs `exec` once the plan is approved. */
const planner: Script = (context: StreamContext) => {
  const last = context.messages.at(-1) as { role: string; content: unknown };
  const said = JSON.stringify(last.content);
  if (said.includes("approved the plan")) return { toolCalls: [{ name: "exec", args: { command: "make refactor" } }] };
  if (said.includes("rejected the plan") && last.role === "user") return "revising";
  if (last.role !== "toolResult") return { toolCalls: [{ name: "exec", args: { command: "make refactor" } }] };
  if (said.includes("Plan mode:")) return { toolCalls: [{ name: "propose_plan", args: { plan: "1. make refactor" } }] };
  return "done";
};

/** A new gateway's channel counts its message ids from 1 again: ids unique across the test, or they are replays. */
let sent = 0;
const unique = <T extends object>(message: T) => ({ ...message, eventId: `evt-${++sent}`, messageId: `msg-${sent}` });

const offeredTools = (context: StreamContext) => (context.tools ?? []).map((tool) => tool.name).sort();

describe("plan mode and its waiting plan are stored with the session", () => {
  const open: Harness[] = [];
  afterEach(async () => {
    for (const h of open.splice(0)) await h.close();
  });

  async function gatewayOn(store: SessionStore) {
    const probe = execProbe();
    const h = await startHarness({
      config,
      store,
      script: planner,
      gateway: { agents: { main: { tools: [probe.tool] } }, extensions: [planModeExtension({ agents: ["main"] })] },
    });
    open.push(h);
    return { h, probe };
  }

  /** A first gateway: plan mode on, the agent's plan waiting for the owner; then it stops. */
  async function planWaitsThenRestart(
    store: SessionStore,
    chat: { chatType: "dm" | "group"; chatId: string; sender: { id: string; name: string } } = owner,
  ) {
    const { h: first, probe } = await gatewayOn(store);
    await first.send(unique({ ...chat, text: "/plan" }));
    await first.channel.inject(unique({ ...chat, text: "refactor the parser" }));
    await vi.waitFor(() => expect(first.channel.transcript(chat.chatId).at(-1)).toContain("**Proposed plan**"), {
      timeout: 5_000,
    });
    await first.close();
    open.splice(open.indexOf(first), 1);
    expect(probe.commands).toEqual([]);
    return gatewayOn(store);
  }

  it("after a restart the waiting plan is answered with /plan approve and a new turn carries it out", async () => {
    const store = new MemorySessionStore();
    const { h, probe } = await planWaitsThenRestart(store);
    await h.send(unique({ ...owner, text: "/plan approve" }));
    expect(h.channel.transcript("owner")).toContain("Plan approved: plan mode is off and the agent carries it out.");
    expect(probe.commands).toEqual(["make refactor"]);
    expect(h.channel.transcript("owner").at(-1)).toBe("done");
    // Plan mode is over, and nothing of it is stored any more.
    const session = (await store.listSessions()).find((one) => one.chatId === "owner");
    expect(session?.settings[PLAN_MODE_SETTING]).toBeUndefined();
    await h.send(unique({ ...owner, text: "again" }));
    expect(probe.commands).toEqual(["make refactor", "make refactor"]);
  });

  it("after a restart plan mode is still on: the requests say so and offer no exec; /plan reject reaches the model", async () => {
    const store = new MemorySessionStore();
    const { h, probe } = await planWaitsThenRestart(store);
    await h.send(unique({ ...owner, text: "/plan reject on a branch please" }));
    expect(h.channel.transcript("owner")).toContain("Plan rejected: still in plan mode; the agent revises it.");
    const call = h.streamFn.calls.at(-1)?.context;
    expect(JSON.stringify(call?.messages.at(-1))).toContain(
      "rejected the plan you proposed with propose_plan earlier: on a branch please",
    );
    expect(call?.systemPrompt).toContain("Plan mode is on");
    expect(call === undefined ? [] : offeredTools(call)).toEqual(["propose_plan"]);
    expect(probe.commands).toEqual([]);
    expect(h.channel.transcript("owner").at(-1)).toBe("revising");
  });

  it("after a restart only who asked for the plan (or an admin) answers it; /new drops plan mode", async () => {
    const store = new MemorySessionStore();
    const member = (id: string) => ({ chatType: "group" as const, chatId: "team", sender: { id, name: id } });
    const { h, probe } = await planWaitsThenRestart(store, member("owner"));
    await h.send(unique({ ...member("carol"), text: "/plan approve" }));
    expect(h.channel.transcript("team").at(-1)).toBe(
      "Only the person who asked for this plan or an admin can approve or reject it.",
    );
    expect(probe.commands).toEqual([]);

    await h.send(unique({ ...member("owner"), text: "/new" }));
    const session = (await store.listSessions()).find((one) => one.chatId === "team");
    expect(session?.settings[PLAN_MODE_SETTING]).toBeUndefined();
    await h.send(unique({ ...member("owner"), text: "/plan approve" }));
    expect(h.channel.transcript("team").at(-1)).toBe("No plan is waiting for approval.");
    await h.send(unique({ ...member("owner"), text: "refactor the parser" }));
    expect(probe.commands).toEqual(["make refactor"]);
  });
});
