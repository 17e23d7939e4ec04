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

/**
 * "spawn" starts a background helper whose task takes `slowMs`; a result coming back is acknowledged. The task is slow
 * (`SLOW_MS`) at the instance that is cut off, so that it is still running then, and quick at the one that runs it
 * again (nothing there waits for it).
 */
const SLOW_MS = 3000;
const RERUN_MS = 100;
const scriptTaking =
  (slowMs: number, answerAfterSpawnMs = 0) =>
  (context: StreamContext): ScriptedTurn => {
    const last = context.messages.at(-1) as { role: string; content: unknown } | undefined;
    const said = typeof last?.content === "string" ? last.content : JSON.stringify(last?.content);
    if (last?.role === "toolResult")
      return { blocks: [{ type: "text", text: "spawned", delayMs: answerAfterSpawnMs }] };
    if (said === "spawn") {
      return {
        toolCalls: [
          {
            name: "spawn_agent",
            args: { agent: "helper", task: "slow", mode: "background", label: "slow helper", timeoutSeconds: 120 },
          },
        ],
      };
    }
    if (said === "slow") return { blocks: [{ type: "text", text: "slow result", delayMs: slowMs }] };
    if (said.startsWith("[Background sub-agent")) return `Parent got it: ${said.split("\n\n")[1] ?? ""}`;
    return "ok";
  };

interface Instance extends ClusterMember {
  stop(): Promise<void>;
}

/**
 * An instance on its own schema; one `throughGate` can be cut off (and runs the task slowly). `withHelper: false` has
 * no "helper" sub-agent configured.
 */
async function instance(
  name: string,
  throughGate: boolean,
  schema: string,
  withHelper = true,
  answerAfterSpawnMs = 0,
): Promise<Instance> {
  const store = await openClusterStore(url(throughGate), name, schema);
  const channel = new TestChannel({ id: "test", accountId: "main" });
  const gateway = new Gateway({
    config,
    store,
    channels: [channel],
    streamFn: scriptedStreamFn(scriptTaking(throughGate ? SLOW_MS : RERUN_MS, answerAfterSpawnMs)),
    models: { find: (id) => (id === model.id ? model : undefined), list: () => [model] },
    selfIds: { "test/main": "bot" },
    replyMode: "block",
    outbox: { pollMs: 200, baseRetryMs: 200 },
    agents: withHelper
      ? { main: { subagents: { helper: { description: "helps", tools: [] } } } }
      : { main: { subagents: { other: { description: "does other things", tools: [] } } } },
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

/** a and b share the shards; a sender of a's spawns a background helper at a; then a loses the database for good. */
async function spawnAtAThenCutAOff(a: Instance, b: Instance, parentDone = true) {
  await vi.waitFor(() => expect([a, b].map((one) => heldShards(one) > 0)).toEqual([true, true]), { timeout: 5000 });
  const sender = senders.find((candidate) => owns(a, sessionKeyOf(a.gateway, candidate))) as string;
  const key = sessionKeyOf(a.gateway, sender);
  const chat = (): string[] => saidInDm([a, b], sender);
  await a.channel.inject({ text: "spawn", sender: { id: sender }, eventId: "spawn-1", messageId: "spawn-1" });
  if (parentDone) await vi.waitFor(() => expect(chat()).toEqual(["spawned"]), { timeout: 5000 });
  const child = await vi.waitFor(
    async () => {
      const found = (await a.store.listRuns({ status: "running" })).find((run) => run.depth === 1);
      expect(found).toBeDefined();
      expect(await a.store.readTranscript(found?.sessionKey as string)).toHaveLength(1);
      return found as RunRecord;
    },
    { timeout: 5000 },
  );
  gate.shut();
  await vi.waitFor(() => expect(owns(b, key)).toBe(true), { timeout: 8000 });
  return { key, chat, child };
}

describe("a background sub-agent whose instance is cut off from the database and never comes back", () => {
  it("is run again by the instance that took its parent's session over, and its result reaches the parent once", async () => {
    const a = await instance("a", true, "subagent_rerun");
    const b = await instance("b", false, "subagent_rerun");
    try {
      const { key, chat, child } = await spawnAtAThenCutAOff(a, b);

      await vi.waitFor(() => expect(chat()).toContain("Parent got it: slow result"), { timeout: 20_000 });
      await b.gateway.idle();
      expect(chat().filter((text) => text === "Parent got it: slow result")).toHaveLength(1);
      // No "interrupted" note: the task was run again instead.
      expect(chat().filter((text) => text.startsWith("Parent got it: The gateway instance running"))).toEqual([]);
      // The first run was interrupted by the takeover; a second run, in the same sub-agent session, completed at b.
      expect((await b.store.getRun(child.id))?.status).toBe("interrupted");
      const runs = (await b.store.listRuns({})).filter((run) => run.sessionKey === child.sessionKey);
      expect(runs.map((run) => run.status).sort()).toEqual(["completed", "interrupted"]);
      const rerun = runs.find((run) => run.id !== child.id) as RunRecord;
      expect(rerun.parentRunId).toBe(child.parentRunId);
      // It ran as the first run was spawned: its label, its time limit, its parent's tier (the sender is an admin).
      const spawn = { label: "slow helper", timeoutSeconds: 120, trustTier: "owner", background: true };
      expect([child.spawn, rerun.spawn]).toEqual([spawn, spawn]);
      // The parent's session took the result once, under the run id it spawned the task as.
      const transcript = (await b.store.readTranscript(key)).map((entry) => JSON.stringify(entry.message.content));
      expect(transcript.filter((text) => text.includes(`run ${child.id}, finished: completed`))).toHaveLength(1);
      expect(transcript.filter((text) => text.includes("[Background sub-agent"))).toHaveLength(1);
    } finally {
      gate.open();
      await a.stop();
      await b.stop();
    }
  }, 60_000);

  it("is run again also when its parent's run was cut off before it ended, and its result reaches the parent once", async () => {
    // At a, the parent's answer after the spawn takes long: the cut comes while the parent's run is still running.
    const a = await instance("a", true, "subagent_rerun_parent_cut", true, 20_000);
    const b = await instance("b", false, "subagent_rerun_parent_cut");
    try {
      const { chat, child } = await spawnAtAThenCutAOff(a, b, false);
      expect((await b.store.getRun(child.parentRunId as string))?.status).toBe("interrupted");

      // Before, a background child whose parent was interrupted too was neither run again nor reported: lost.
      await vi.waitFor(() => expect(chat()).toContain("Parent got it: slow result"), { timeout: 20_000 });
      await b.gateway.idle();
      expect(chat().filter((text) => text === "Parent got it: slow result")).toHaveLength(1);
      const runs = (await b.store.listRuns({})).filter((run) => run.sessionKey === child.sessionKey);
      expect(runs.map((run) => run.status).sort()).toEqual(["completed", "interrupted"]);
    } finally {
      gate.open();
      await a.stop();
      await b.stop();
    }
  }, 60_000);

  it("is reported to the parent as interrupted, once, when the instance that took over cannot run it again", async () => {
    const a = await instance("a", true, "subagent_no_rerun");
    // b has no "helper" sub-agent configured: it cannot run the task again.
    const b = await instance("b", false, "subagent_no_rerun", false);
    try {
      const { key, chat, child } = await spawnAtAThenCutAOff(a, b);

      await vi.waitFor(
        () =>
          expect(chat().filter((text) => text.startsWith("Parent got it: The gateway instance running"))).toHaveLength(
            1,
          ),
        { timeout: 20_000 },
      );
      await b.gateway.idle();
      expect(chat().filter((text) => text.startsWith("Parent got it:"))).toHaveLength(1);
      const runs = (await b.store.listRuns({})).filter((run) => run.sessionKey === child.sessionKey);
      expect(runs.map((run) => run.status)).toEqual(["interrupted"]);
      const transcript = (await b.store.readTranscript(key)).map((entry) => JSON.stringify(entry.message.content));
      expect(transcript.filter((text) => text.includes(`run ${child.id}, finished: interrupted`))).toHaveLength(1);
    } finally {
      gate.open();
      await a.stop();
      await b.stop();
    }
  }, 60_000);
});
