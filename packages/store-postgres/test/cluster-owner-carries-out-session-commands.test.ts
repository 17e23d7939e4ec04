import { DEFAULT_SUMMARY_PROMPT } from "@chorus/core";
import { fakeModel, scriptedStreamFn } from "@chorus/core/testing";
import { autonomyExtension } from "@chorus/extension-autonomy";
import { planModeExtension } from "@chorus/extension-plan-mode";
import { Gateway, TestChannel } from "@chorus/gateway";
import { deployNeedsApproval, deployProbe, NOT_YOURS_TO_ANSWER } from "@chorus/gateway-testing";
import { describe, expect, it, vi } from "vitest";
import {
  type ClusterMember,
  heldShards,
  saidInDm,
  senderOwnedBy,
  sessionKeyOf,
  stopOnce,
} from "./fixtures/cluster-member.js";
import { databaseBehindAGate, openClusterStore } from "./fixtures/database-behind-a-gate.js";

const { gate, url } = await databaseBehindAGate();

const model = fakeModel();
const config = {
  agents: [{ id: "main", model: model.id, goals: { autonomousEnabled: true, autonomousTurnDelayMs: 200 } }],
  channels: [
    {
      channel: "test",
      dmPolicy: "open" as const,
      admins: ["admin", ...Array.from({ length: 100 }, (_, i) => `bob-${i}`)],
    },
  ],
};

interface Instance extends ClusterMember {
  readonly model: ReturnType<typeof scriptedStreamFn>;
  readonly deployed: string[];
  send(sender: string, text: string): Promise<void>;
  stop(): Promise<void>;
}

let events = 0;

/** Text of the last message of a model call's context. */
function lastText(context: { messages: readonly unknown[] }): string {
  // The last message that is not a system reminder (plan mode adds one to its requests).
  return JSON.stringify(context.messages.findLast((message) => (message as { isMeta?: boolean }).isMeta !== true));
}

/** An instance of the cluster on `schema`; `throughGate`: it reaches the database through the test's NetworkGate. */
async function instance(name: string, schema: string, throughGate = false): Promise<Instance> {
  const store = await openClusterStore(url(throughGate), name, schema);
  const channel = new TestChannel({ id: "test", accountId: "main" });
  const probe = deployProbe();
  // "work" keeps a run going until it is stopped; "ship it" asks to run `deploy` (approval needed) and reports its
  // result; a summary call answers with a summary; anything else is answered "ok".
  const streamFn = scriptedStreamFn((context) => {
    if (context.systemPrompt === DEFAULT_SUMMARY_PROMPT) return "Summary: they talked about x.";
    const last = lastText(context);
    // Plan mode: "plan it" tries to deploy; refused by plan mode it proposes a plan; approved, it reports so.
    if (last.includes("Plan mode:")) return { toolCalls: [{ name: "propose_plan", args: { plan: "1. deploy" } }] };
    if (last.includes("approved the plan")) return "plan carried out";
    if (last.includes("plan it")) return { toolCalls: [{ name: "deploy", args: { target: "staging" } }] };
    if (last.includes('"role":"toolResult"')) return "result: deployed";
    if (last.includes("ship it")) return { toolCalls: [{ name: "deploy", args: { target: "prod" } }] };
    return last.includes("work") ? { fault: "hang" } : "ok";
  });
  const gateway = new Gateway({
    config,
    store,
    channels: [channel],
    streamFn,
    models: { find: (id) => (id === model.id ? model : undefined), list: () => [model] },
    selfIds: { "test/main": "bot" },
    replyMode: "block",
    outbox: { pollMs: 200 },
    agents: {
      main: { tools: [probe.tool], policies: [deployNeedsApproval(60_000)] },
    },
    extensions: [autonomyExtension(), planModeExtension({ agents: ["main"] })],
  });
  await gateway.start();
  return {
    name,
    store,
    gateway,
    channel,
    model: streamFn,
    deployed: probe.deployed,
    async send(sender, text) {
      const eventId = `evt-${name}-${++events}`;
      await channel.inject({ text, sender: { id: sender }, messageId: eventId, eventId });
    },
    stop: stopOnce(gateway, store),
  };
}

/** Two instances sharing the shards, and a sender whose DM session `b` owns. */
async function twoInstances(
  schema: string,
  bThroughGate = false,
): Promise<{ a: Instance; b: Instance; sender: string }> {
  const a = await instance("a", schema);
  const b = await instance("b", schema, bThroughGate);
  await vi.waitFor(() => expect([heldShards(a) > 0, heldShards(b) > 0]).toEqual([true, true]), { timeout: 5000 });
  return { a, b, sender: senderOwnedBy(b, "bob") };
}

/** Waits until a message matching `match` was said in the DM with `sender` (on any instance); then all of them. */
async function saidOnce(members: readonly Instance[], sender: string, match: (text: string) => boolean) {
  await vi.waitFor(() => expect(saidInDm(members, sender).filter(match)).toHaveLength(1), { timeout: 10_000 });
  // A second answer would come from the outbox poll (200 ms) at the latest.
  await new Promise((resolve) => setTimeout(resolve, 500));
  return saidInDm(members, sender).filter(match);
}

describe("session commands typed on an instance that does not own the session", () => {
  it("/compact waits for the owner's running turn, then compacts the owner's live conversation; answered once", async () => {
    const { a, b, sender } = await twoInstances("owner_compact");
    try {
      const long = "x ".repeat(12_000);
      for (const text of [long, long, "short"]) {
        await b.send(sender, text);
        await vi.waitFor(() => expect(saidInDm([a, b], sender).filter((t) => t === "ok").length).toBeGreaterThan(0));
        await b.gateway.idle();
      }
      await vi.waitFor(() => expect(saidInDm([a, b], sender)).toEqual(["ok", "ok", "ok"]), { timeout: 5000 });

      // A turn is under way at the owner: /compact typed at a sees it.
      await b.send(sender, "work on it");
      await vi.waitFor(() => expect(b.gateway.runs.size).toBe(1), { timeout: 5000 });
      await a.send(sender, "/compact");
      expect(await saidOnce([a, b], sender, (text) => text.startsWith("I am working on something"))).toEqual([
        "I am working on something; try /compact when I am done.",
      ]);
      await a.send(sender, "/stop");
      await saidOnce([a, b], sender, (text) => text.startsWith("Stopped"));

      await a.send(sender, "/compact");
      const compacted = await saidOnce([a, b], sender, (text) => text.startsWith("Compacted the conversation"));
      expect(compacted[0]).toMatch(/^Compacted the conversation: ~\d+ → ~\d+ tokens\.$/);
      // The summary was made at the owner, whose Agent in memory now starts with it: its next turn's context does.
      expect(b.model.calls.filter((call) => call.context.systemPrompt === DEFAULT_SUMMARY_PROMPT)).toHaveLength(1);
      await b.send(sender, "and now?");
      await vi.waitFor(() => expect(saidInDm([a, b], sender).filter((text) => text === "ok")).toHaveLength(4), {
        timeout: 5000,
      });
      const context = b.model.calls.at(-1)?.context.messages ?? [];
      expect(JSON.stringify(context[0])).toContain("Summary: they talked about x.");
      expect(context.filter((message) => JSON.stringify(message).includes(long)).length).toBeLessThan(2);
      expect(a.model.calls).toHaveLength(0);
    } finally {
      await a.stop();
      await b.stop();
    }
  });

  it("an approval answered on another instance resolves the owner's waiting tool call, which then runs; answered once", async () => {
    const { a, b, sender } = await twoInstances("owner_approval");
    try {
      await b.send(sender, "ship it");
      await vi.waitFor(() => expect(saidInDm([a, b], sender).join("\n")).toContain("**Approval needed**"), {
        timeout: 5000,
      });
      // The request's buttons, as the owner sent them: pressing one sends its command from the chat.
      const buttons = b.channel.calls.flatMap((call) => (call.op === "send" ? (call.outbound.buttons ?? []) : []));
      const approve = buttons.find((button) => button.label === "Approve")?.id as string;
      const code = approve.split(" ")[1] as string;
      expect(b.deployed).toEqual([]);

      // Someone else than the requester (not an admin) is refused by the owner's desk.
      await a.send("stranger", `/approve ${code}`);
      await vi.waitFor(() => expect(saidInDm([a, b], "stranger")).toEqual([NOT_YOURS_TO_ANSWER]), { timeout: 5000 });

      await a.send(sender, approve);
      expect(await saidOnce([a, b], sender, (text) => text.startsWith("Approved"))).toEqual([
        "Approved: running `deploy`.",
      ]);
      await vi.waitFor(() => expect(saidInDm([a, b], sender)).toContain("result: deployed"), { timeout: 5000 });
      expect(b.deployed).toEqual(["prod"]);
      expect(a.deployed).toEqual([]);
      // Answered once: a second answer finds nothing waiting anywhere.
      await a.send(sender, `/deny ${code}`);
      expect(await saidOnce([a, b], sender, (text) => text.startsWith("No request"))).toEqual([
        `No request is waiting under \`${code}\`.`,
      ]);
      expect(a.model.calls).toHaveLength(0);
    } finally {
      await a.stop();
      await b.stop();
    }
  });

  it("/plan and a plan's Approve button pressed on another instance reach the owner, where the plan waits", async () => {
    const { a, b, sender } = await twoInstances("owner_plan");
    try {
      await a.send(sender, "/plan");
      await saidOnce([a, b], sender, (text) => text.startsWith("Plan mode is on"));
      // Plan mode is on at the owner: its turn may not deploy, and proposes a plan instead.
      await b.send(sender, "plan it");
      await vi.waitFor(() => expect(saidInDm([a, b], sender).join("\n")).toContain("**Proposed plan**"), {
        timeout: 5000,
      });
      const buttons = b.channel.calls.flatMap((call) => (call.op === "send" ? (call.outbound.buttons ?? []) : []));
      await a.send(sender, buttons.find((button) => button.label === "Approve")?.id as string);
      expect(await saidOnce([a, b], sender, (text) => text.startsWith("Plan approved"))).toEqual([
        "Plan approved: plan mode is off and the agent carries it out.",
      ]);
      await vi.waitFor(() => expect(saidInDm([a, b], sender)).toContain("plan carried out"), { timeout: 5000 });
      expect([a.deployed, b.deployed, a.model.calls.length]).toEqual([[], [], 0]);
    } finally {
      await a.stop();
      await b.stop();
    }
  });

  it("/goal create --auto runs its turns at the owner; /goal stop, /goal, /done and /clear reach it there; answered once each", async () => {
    const { a, b, sender } = await twoInstances("owner_goal");
    try {
      await a.send(sender, "/goal create --auto --turns 50 count to fifty");
      await saidOnce([a, b], sender, (text) => text.startsWith("🎯 Autonomous goal started: count to fifty"));
      // The goal's driver lives at the owner: its turns run there, none at the instance the command was typed on.
      await vi.waitFor(() => expect(b.model.calls.length).toBeGreaterThanOrEqual(2), { timeout: 10_000 });
      await a.send(sender, "/goal stop");
      const stopped = await saidOnce([a, b], sender, (text) => text.startsWith("Stopped the autonomous goal"));
      const turns = b.model.calls.length;
      await new Promise((resolve) => setTimeout(resolve, 1000));
      // Stopped at the owner: no further autonomous turn there.
      expect(b.model.calls.length).toBe(turns);
      expect(stopped).toHaveLength(1);

      for (const command of ["/goal write a poem", "/goal", "/done", "/clear"]) {
        const before = saidInDm([a, b], sender).length;
        await a.send(sender, command);
        await vi.waitFor(() => expect(saidInDm([a, b], sender).length).toBe(before + 1), { timeout: 5000 });
      }
      const said = saidInDm([a, b], sender);
      for (const answer of [
        "Goal set: write a poem. I will say when it is completed; /done completes it, /clear drops it.",
        "**Goal**: write a poem\n/done completes it, /clear drops it.",
        "✓ Goal completed: write a poem (/done)",
        "Goal cleared: write a poem",
      ]) {
        expect(said.filter((text) => text === answer)).toHaveLength(1);
      }
      expect(a.model.calls).toHaveLength(0);
    } finally {
      await a.stop();
      await b.stop();
    }
  });

  it("/compact typed while the owner is cut off runs once the session's new owner has it; answered once", async () => {
    const { a, b, sender } = await twoInstances("owner_gone", true);
    try {
      const long = "x ".repeat(12_000);
      for (const text of [long, long, "short"]) {
        await b.send(sender, text);
        await vi.waitFor(() => expect(saidInDm([a, b], sender).filter((t) => t === "ok").length).toBeGreaterThan(0));
        await b.gateway.idle();
      }
      await vi.waitFor(() => expect(saidInDm([a, b], sender)).toEqual(["ok", "ok", "ok"]), { timeout: 5000 });
      // b loses the database (and with it the signals): nobody answers for the session until a claims its shard.
      gate.shut();
      await a.send(sender, "/compact");
      const compacted = await saidOnce([a, b], sender, (text) => text.startsWith("Compacted the conversation"));
      expect(compacted[0]).toMatch(/^Compacted the conversation: ~\d+ → ~\d+ tokens\.$/);
      expect(a.store.ownership?.fenceFor(sessionKeyOf(a.gateway, sender))).toBeDefined();
      expect(a.model.calls.filter((call) => call.context.systemPrompt === DEFAULT_SUMMARY_PROMPT)).toHaveLength(1);
      const stored = await a.store.readTranscript(sessionKeyOf(a.gateway, sender));
      expect(JSON.stringify(stored[0]?.message)).toContain("Summary: they talked about x.");
    } finally {
      gate.open();
      await a.stop();
      await b.stop();
    }
  });
});
