import type { StreamContext } from "@chorus/core";
import { fakeModel, scriptedStreamFn } from "@chorus/core/testing";
import { autonomyExtension, SUPERVISOR_SYSTEM_PROMPT } from "@chorus/extension-autonomy";
import { Gateway, TestChannel } from "@chorus/gateway";
import { expect, it, vi } from "vitest";
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
  agents: [{ id: "main", model: model.id, goals: { autonomousEnabled: true, autonomousTurnDelayMs: 100 } }],
  channels: [{ channel: "test", dmPolicy: "open" as const, admins: Array.from({ length: 100 }, (_, i) => `ann-${i}`) }],
};

interface Instance extends ClusterMember {
  readonly model: ReturnType<typeof scriptedStreamFn>;
  stop(): Promise<void>;
}

/** The autonomous turns a model was asked for, by number. */
function turnsAsked(calls: readonly { context: StreamContext }[]): number[] {
  return calls.flatMap(({ context }) => {
    const last = context.messages.at(-1);
    const said = typeof last?.content === "string" ? last.content : "";
    const turn = /^\[Autonomous goal, turn (\d+) of/.exec(said)?.[1];
    return turn === undefined || context.systemPrompt === SUPERVISOR_SYSTEM_PROMPT ? [] : [Number(turn)];
  });
}

async function instance(name: string, throughGate: boolean): Promise<Instance> {
  const store = await openClusterStore(url(throughGate), name, "goal_moves");
  const channel = new TestChannel({ id: "test", accountId: "main" });
  // Each autonomous turn answers "step N"; the supervisor never finds the goal achieved.
  const streamFn = scriptedStreamFn((context) => {
    if (context.systemPrompt === SUPERVISOR_SYSTEM_PROMPT) return '{"achieved": false, "reason": "not yet"}';
    const turn = turnsAsked([{ context }])[0];
    return turn === undefined ? "ok" : `step ${turn}`;
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
    extensions: [autonomyExtension()],
  });
  await gateway.start();
  return { name, store, gateway, channel, model: streamFn, stop: stopOnce(gateway, store) };
}

it("goes on at the instance that takes its session over when its instance is cut off from the database", async () => {
  const a = await instance("a", true);
  const b = await instance("b", false);
  try {
    await vi.waitFor(() => expect([heldShards(a) > 0, heldShards(b) > 0]).toEqual([true, true]), { timeout: 5000 });
    const sender = senderOwnedBy(a, "ann");
    const key = sessionKeyOf(a.gateway, sender);
    await a.channel.inject({ text: "/goal create --auto --turns 40 count on", sender: { id: sender }, eventId: "g-1" });
    await vi.waitFor(() => expect(turnsAsked(a.model.calls).length).toBeGreaterThanOrEqual(2), { timeout: 10_000 });
    expect(turnsAsked(b.model.calls)).toEqual([]);

    gate.shut();
    await vi.waitFor(() => expect(b.store.ownership?.fenceFor(key)).toBeDefined(), { timeout: 8000 });
    // b drives the goal from where the store says it stands: the next turns, in order, none from the start again.
    await vi.waitFor(() => expect(turnsAsked(b.model.calls).length).toBeGreaterThanOrEqual(3), { timeout: 10_000 });
    const atB = turnsAsked(b.model.calls);
    const lastAtA = Math.max(...turnsAsked(a.model.calls));
    expect(atB[0]).toBeGreaterThanOrEqual(lastAtA - 1);
    expect(atB).toEqual([...atB].sort((x, y) => x - y));
    expect(new Set(atB).size).toBe(atB.length);
    // Said once. It may come a while after b's first turns: a reply a was sending at the cut is due at b only after the
    // grace in which a could still record it sent (10 s), and the chat's later messages wait behind it, in order.
    const resumed = () =>
      saidInDm([b], sender).filter((text) =>
        text.startsWith("🎯 Resuming the autonomous goal after its gateway instance stopped"),
      );
    await vi.waitFor(() => expect(resumed()).toHaveLength(1), { timeout: 20_000 });

    await b.channel.inject({ text: "/goal stop", sender: { id: sender }, eventId: "g-2" });
    await vi.waitFor(
      () => expect(saidInDm([b], sender).some((text) => text.startsWith("Stopped the autonomous goal"))).toBe(true),
      { timeout: 15_000 },
    );
    expect(resumed()).toHaveLength(1);
  } finally {
    gate.open();
    await a.stop();
    await b.stop();
  }
}, 60_000);
