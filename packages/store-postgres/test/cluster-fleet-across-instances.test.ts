import { fakeModel, scriptedStreamFn } from "@chorus/core/testing";
import { Gateway, TestChannel } from "@chorus/gateway";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { PostgresSessionStore } from "../src/index.js";
import { createScratchDatabase, type ScratchDatabase } from "../src/testing/index.js";
import { type ClusterMember, heldShards, saidInDm, senderOwnedBy, stopOnce } from "./fixtures/cluster-member.js";

let database: ScratchDatabase;
beforeAll(async () => {
  database = await createScratchDatabase();
});
afterAll(async () => {
  await database.drop();
});

const model = fakeModel();
const other = fakeModel({ id: "fake-model-large" });
const config = {
  agents: [{ id: "main", model: model.id, models: [model.id, other.id] }],
  // Admins (owner tier) may spawn sub-agents.
  channels: [
    {
      channel: "test",
      dmPolicy: "open" as const,
      admins: ["admin", ...Array.from({ length: 100 }, (_, i) => `bob-${i}`)],
    },
  ],
};

/** One gateway instance of the cluster, with its own store and its own connection to the same bot account. */
interface Instance extends ClusterMember {
  readonly model: ReturnType<typeof scriptedStreamFn>;
  /** This instance's id in the fleet (its lease owner id). */
  readonly id: string;
  /** Injects a message from `sender` (event ids unique across instances, as a platform's are). */
  send(sender: string, text: string): Promise<void>;
  stop(): Promise<void>;
}

let events = 0;

async function instance(name: string, schema: string): Promise<Instance> {
  const store = await PostgresSessionStore.open({
    url: database.url,
    schema,
    cluster: { instanceId: name, leaseMs: 1500, sweepMs: 1000 },
    onWarning: () => {},
  });
  const channel = new TestChannel({ id: "test", accountId: "main" });
  // "work" keeps a run going until it is stopped, with a sub-agent it waits for when it says "with help"; anything
  // else is answered at once.
  const streamFn = scriptedStreamFn((context) => {
    const last = JSON.stringify(context.messages.at(-1));
    if (last.includes("with help") && !last.includes("toolResult")) {
      return { toolCalls: [{ name: "spawn_agent", args: { agent: "helper", task: "work", mode: "wait" } }] };
    }
    return last.includes("work") ? { fault: "hang" } : "ok";
  });
  const gateway = new Gateway({
    config,
    store,
    channels: [channel],
    streamFn,
    models: { find: (id) => [model, other].find((m) => m.id === id), list: () => [model, other] },
    selfIds: { "test/main": "bot" },
    replyMode: "block",
    outbox: { pollMs: 200 },
    agents: { main: { subagents: { helper: { description: "helps", tools: [] } } } },
  });
  await gateway.start();
  return {
    name,
    store,
    gateway,
    channel,
    model: streamFn,
    id: store.ownership?.fleet?.self ?? name,
    async send(sender, text) {
      const eventId = `evt-${++events}`;
      await channel.inject({ text, sender: { id: sender }, messageId: eventId, eventId });
    },
    stop: stopOnce(gateway, store),
  };
}

/** Two instances sharing the shards, and a run of `b`'s going on for a sender whose session `b` owns. */
async function clusterWithARunAtB(
  schema: string,
  text = "work on it",
): Promise<{ a: Instance; b: Instance; sender: string; runId: string }> {
  const a = await instance("a", schema);
  const b = await instance("b", schema);
  await vi.waitFor(() => expect([heldShards(a) > 0, heldShards(b) > 0]).toEqual([true, true]), { timeout: 5000 });
  const sender = senderOwnedBy(b, "bob");
  await b.send(sender, text);
  const runs = text.includes("with help") ? 2 : 1;
  await vi.waitFor(() => expect(b.gateway.runs.size).toBe(runs), { timeout: 5000 });
  const runId = b.gateway.runs.all().find((run) => run.depth === 0)?.runId as string;
  return { a, b, sender, runId };
}

describe("the fleet across the instances of a cluster", () => {
  it("/agents on one instance lists another instance's run with that instance and its heartbeat age; /status lists the instances and the chat's live state at its owner", async () => {
    const { a, b, sender, runId } = await clusterWithARunAtB("fleet_list");
    try {
      // b reports its live runs with its next heartbeat.
      await vi.waitFor(
        async () => {
          const instances = (await a.store.ownership?.fleet?.instances()) ?? [];
          expect(instances.find((one) => one.id === b.id)?.runs.map((run) => run.runId)).toEqual([runId]);
        },
        { timeout: 5000 },
      );
      await a.send("admin", "/agents");
      await vi.waitFor(() => expect(saidInDm([a, b], "admin")).toHaveLength(1), { timeout: 5000 });
      const fleet = saidInDm([a, b], "admin")[0] as string;
      const line = fleet.split("\n").find((text) => text.includes(runId));
      expect(line).toMatch(new RegExp(`main · depth 0 · running · .* · on ${b.id} \\(beat \\d+\\.\\d s ago\\)$`));
      expect(fleet).toContain("**Instances** (2)");
      expect(fleet).toMatch(new RegExp(`- ${b.id}: \\d+ shard\\(s\\) · beat \\d+\\.\\d s ago · 1 live run\\(s\\)`));

      // /status from the chat whose run is at b, typed at a: the session's live state comes from its owner.
      await a.send(sender, "/status");
      await vi.waitFor(() => expect(saidInDm([a, b], sender)).toHaveLength(1), { timeout: 5000 });
      const status = saidInDm([a, b], sender)[0] as string;
      expect(status).toContain("· working");
      expect(status).toContain("**Instances** (2)");
      expect(status).toMatch(new RegExp(`- ${a.id} \\(this one\\): \\d+ shard\\(s\\) · beat \\d+\\.\\d s ago`));
      expect(status).toMatch(new RegExp(`- ${b.id} \\(owns this chat\\): \\d+ shard\\(s\\) · beat`));
    } finally {
      await a.stop();
      await b.stop();
    }
  });

  it("/agents kill on one instance stops a run of another instance and its sub-agent within 2 s", async () => {
    const { a, b, runId } = await clusterWithARunAtB("fleet_kill", "work with help");
    try {
      const child = b.gateway.runs.all().find((run) => run.depth === 1)?.runId as string;
      await a.send("admin", `/agents kill ${runId}`);
      await vi.waitFor(() => expect(b.gateway.runs.size).toBe(0), { timeout: 2000 });
      await vi.waitFor(() => expect(saidInDm([a, b], "admin")).toHaveLength(1), { timeout: 5000 });
      expect(saidInDm([a, b], "admin")).toEqual([
        `Stopped ${runId} on ${b.id} and 1 sub-agent run(s) under it; its chat was told.`,
      ]);
      await vi.waitFor(
        async () =>
          expect([(await a.store.getRun(runId))?.status, (await a.store.getRun(child))?.status]).toEqual([
            "aborted",
            "aborted",
          ]),
        { timeout: 5000 },
      );

      // A run the store has running that no live instance holds (its instance died): the admin is told so.
      const ghost = "main:main:test:dm:ghost";
      await a.store.ensureSession({
        key: ghost,
        agentId: "main",
        channel: "test",
        accountId: "main",
        chatId: "dm-ghost",
      });
      await a.store.startRun({ id: "run_ghost", sessionKey: ghost, agentId: "main" });
      await a.send("admin", "/agents kill run_ghost");
      await vi.waitFor(() => expect(saidInDm([a, b], "admin")).toHaveLength(2), { timeout: 5000 });
      expect(saidInDm([a, b], "admin")[1]).toContain('No instance answered for run "run_ghost"');
    } finally {
      await a.stop();
      await b.stop();
    }
  });

  it("/stop, /model, /queue and /new typed on an instance that does not own the session reach its owner, answered once", async () => {
    const { a, b, sender } = await clusterWithARunAtB("fleet_commands");
    try {
      await a.send(sender, `/model ${other.id}`);
      await vi.waitFor(() => expect(saidInDm([a, b], sender)).toContain(`This chat now uses ${other.id}.`), {
        timeout: 5000,
      });
      // /queue: the owner's live lane switches (/status, typed here too, reports the owner's lane).
      await a.send(sender, "/queue followup");
      await vi.waitFor(() => expect(saidInDm([a, b], sender)).toContain("Queue mode set to followup."), {
        timeout: 5000,
      });
      await a.send(sender, "/status");
      await vi.waitFor(
        () => expect(saidInDm([a, b], sender).join("\n")).toContain("**Queue** followup · 0 waiting · working"),
        {
          timeout: 5000,
        },
      );

      await a.send(sender, "/stop");
      await vi.waitFor(() => expect(saidInDm([a, b], sender)).toContain("Stopped the current task."), {
        timeout: 5000,
      });
      expect(b.gateway.runs.size).toBe(0);
      await Promise.all([a.gateway.idle(), b.gateway.idle()]);
      expect(saidInDm([a, b], sender).filter((text) => text.startsWith("Stopped"))).toEqual([
        "Stopped the current task.",
      ]);
      expect(saidInDm([a, b], sender).filter((text) => text.startsWith("This chat now uses"))).toHaveLength(1);

      // The owner's live session switched model, not only the stored override.
      await b.send(sender, "and now?");
      await vi.waitFor(() => expect(saidInDm([a, b], sender)).toContain("ok"), { timeout: 5000 });
      expect(b.model.calls.at(-1)?.model.id).toBe(other.id);

      // /new: the owner drops its Agent (it held the conversation in memory) and the transcript starts over.
      await a.send(sender, "/new");
      await vi.waitFor(() => expect(saidInDm([a, b], sender)).toContain("Started a new conversation."), {
        timeout: 5000,
      });
      await b.send(sender, "fresh start");
      await vi.waitFor(() => expect(saidInDm([a, b], sender).filter((text) => text === "ok")).toHaveLength(2), {
        timeout: 5000,
      });
      expect(b.model.calls.at(-1)?.context.messages).toHaveLength(1);
      expect(saidInDm([a, b], sender).filter((text) => text === "Started a new conversation.")).toHaveLength(1);
      expect(a.model.calls).toHaveLength(0);
    } finally {
      await a.stop();
      await b.stop();
    }
  });
});
