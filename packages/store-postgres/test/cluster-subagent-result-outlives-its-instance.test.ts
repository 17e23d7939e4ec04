import type { StreamContext } from "@chorus/core";
import { fakeModel, type ScriptedTurn, scriptedStreamFn } from "@chorus/core/testing";
import { Gateway, TestChannel } from "@chorus/gateway";
import type { RunRecord } from "@chorus/store";
import { describe, expect, it, vi } from "vitest";
import { type ClusterMember, heldShards, saidInDm, sessionKeyOf, stopOnce } from "./fixtures/cluster-member.js";
import { databaseBehindAGate, openClusterStore } from "./fixtures/database-behind-a-gate.js";

const { gate, url } = await databaseBehindAGate();

const model = fakeModel();
const senders = Array.from({ length: 100 }, (_, i) => `ann-${i}`);
const config = {
  agents: [{ id: "main", model: model.id }],
  // Admins (owner tier) may spawn sub-agents.
  channels: [{ channel: "test", dmPolicy: "open" as const, admins: senders }],
};

/** "spawn" starts a background helper whose task takes `SLOW_MS`; a result coming back is acknowledged. */
const SLOW_MS = 3000;
function script(context: StreamContext): ScriptedTurn {
  const last = context.messages.at(-1) as { role: string; content: unknown } | undefined;
  const said = typeof last?.content === "string" ? last.content : JSON.stringify(last?.content);
  if (last?.role === "toolResult") return "spawned";
  if (said === "spawn") {
    return { toolCalls: [{ name: "spawn_agent", args: { agent: "helper", task: "slow", mode: "background" } }] };
  }
  if (said === "slow") return { blocks: [{ type: "text", text: "slow result", delayMs: SLOW_MS }] };
  if (said.startsWith("[Background sub-agent")) return `Parent got it: ${said.split("\n\n")[1] ?? ""}`;
  return "ok";
}

interface Instance extends ClusterMember {
  stop(): Promise<void>;
}

async function instance(name: string, throughGate: boolean): Promise<Instance> {
  const store = await openClusterStore(url(throughGate), name, "subagents");
  const channel = new TestChannel({ id: "test", accountId: "main" });
  const gateway = new Gateway({
    config,
    store,
    channels: [channel],
    streamFn: scriptedStreamFn(script),
    models: { find: (id) => (id === model.id ? model : undefined), list: () => [model] },
    selfIds: { "test/main": "bot" },
    replyMode: "block",
    outbox: { pollMs: 200, baseRetryMs: 200 },
    agents: { main: { subagents: { helper: { description: "helps", tools: [] } } } },
  });
  await gateway.start();
  return {
    name,
    store,
    gateway,
    channel,
    stop: stopOnce(gateway, store),
  };
}

const owns = (one: Instance, key: string): boolean => one.store.ownership?.fenceFor(key) !== undefined;

describe("a background sub-agent whose parent's instance is cut off from the database", () => {
  it("delivers its result to the parent's session once, though the instance that took the session over ran it again", async () => {
    const a = await instance("a", true);
    const b = await instance("b", false);
    try {
      await vi.waitFor(() => expect([a, b].map((one) => heldShards(one) > 0)).toEqual([true, true]), {
        timeout: 5000,
      });
      const sender = senders.find((candidate) => owns(a, sessionKeyOf(a.gateway, candidate))) as string;
      const key = sessionKeyOf(a.gateway, sender);
      const chat = (): string[] => saidInDm([a, b], sender);

      await a.channel.inject({ text: "spawn", sender: { id: sender }, eventId: "spawn-1", messageId: "spawn-1" });
      await vi.waitFor(() => expect(chat()).toEqual(["spawned"]), { timeout: 5000 });
      // The background sub-agent has started (it may start just after the parent's reply): its run and its task are
      // stored, and it works on the task.
      const child = await vi.waitFor(
        async () => {
          const found = (await a.store.listRuns({ status: "running" })).find((run) => run.depth === 1);
          expect(found).toBeDefined();
          expect(await a.store.readTranscript(found?.sessionKey as string)).toHaveLength(1);
          return found as RunRecord;
        },
        { timeout: 5000 },
      );

      // a loses the database while its sub-agent works; b takes a's sessions over once a's lease has expired.
      gate.shut();
      await vi.waitFor(() => expect(owns(b, key)).toBe(true), { timeout: 8000 });
      // The sub-agent finishes at a meanwhile (its result cannot be stored yet); then a comes back.
      await vi.waitFor(() => expect(a.gateway.runs.size).toBe(0), { timeout: 8000 });
      gate.open();

      await vi.waitFor(() => expect(chat()).toContain("Parent got it: slow result"), { timeout: 20_000 });
      await Promise.all([a.gateway.idle(), b.gateway.idle()]);
      expect(chat().filter((text) => text === "Parent got it: slow result")).toHaveLength(1);
      // The takeover interrupted the sub-agent's run (it lives in its root session's shard) and b ran it again; of
      // b's result and the one a still delivered when it came back, the parent took one (deduped by the task's run id).
      expect((await b.store.getRun(child.id))?.status).toBe("interrupted");
      expect(chat().filter((text) => text.startsWith("Parent got it: The gateway instance running"))).toEqual([]);
      const transcript = (await b.store.readTranscript(key)).map((entry) => JSON.stringify(entry.message.content));
      const results = transcript.filter((text) => text.includes(`run ${child.id}, finished: completed`));
      expect(results).toHaveLength(1);
    } finally {
      gate.open();
      await a.stop();
      await b.stop();
    }
  }, 60_000);
});
