import type { StreamContext } from "@chorus/core";
import { fakeModel, scriptedStreamFn } from "@chorus/core/testing";
import { planModeExtension } from "@chorus/extension-plan-mode";
import { Gateway, TestChannel } from "@chorus/gateway";
import { deployProbe } from "@chorus/gateway-testing";
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
  agents: [{ id: "main", model: model.id }],
  // Admins (owner tier): a guest may not propose a plan.
  channels: [{ channel: "test", dmPolicy: "open" as const, admins: Array.from({ length: 100 }, (_, i) => `dan-${i}`) }],
};

interface Instance extends ClusterMember {
  readonly model: ReturnType<typeof scriptedStreamFn>;
  readonly deployed: string[];
  stop(): Promise<void>;
}

/** The text of a request's last message that is not a system reminder (plan mode adds one). */
function lastText(context: StreamContext): string {
  return JSON.stringify(context.messages.findLast((message) => (message as { isMeta?: boolean }).isMeta !== true));
}

async function instance(name: string, throughGate: boolean): Promise<Instance> {
  const store = await openClusterStore(url(throughGate), name, "plan_moves");
  const channel = new TestChannel({ id: "test", accountId: "main" });
  const probe = deployProbe();
  // "plan it" tries to deploy; refused by plan mode it proposes a plan; told it was approved, it deploys.
  const streamFn = scriptedStreamFn((context) => {
    const last = lastText(context);
    if (last.includes("approved the plan")) return { toolCalls: [{ name: "deploy", args: { target: "staging" } }] };
    if (last.includes("Plan mode:")) return { toolCalls: [{ name: "propose_plan", args: { plan: "1. deploy" } }] };
    if (last.includes("deployed staging")) return "plan carried out";
    if (last.includes("plan it")) return { toolCalls: [{ name: "deploy", args: { target: "staging" } }] };
    return "ok";
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
    agents: { main: { tools: [probe.tool] } },
    extensions: [planModeExtension({ agents: ["main"] })],
  });
  await gateway.start();
  return { name, store, gateway, channel, model: streamFn, deployed: probe.deployed, stop: stopOnce(gateway, store) };
}

it("plan mode and the waiting plan move to the instance that takes the session over; /plan approve works there", async () => {
  const a = await instance("a", true);
  const b = await instance("b", false);
  try {
    await vi.waitFor(() => expect([heldShards(a) > 0, heldShards(b) > 0]).toEqual([true, true]), { timeout: 5000 });
    const sender = senderOwnedBy(a, "dan");
    const key = sessionKeyOf(a.gateway, sender);
    const say = (at: Instance, text: string, id: string) =>
      at.channel.inject({ text, sender: { id: sender }, messageId: id, eventId: id });
    await say(a, "/plan", "p-1");
    await vi.waitFor(() => expect(saidInDm([a, b], sender).join("\n")).toContain("Plan mode is on"), { timeout: 5000 });
    await say(a, "plan it", "p-2");
    await vi.waitFor(() => expect(saidInDm([a, b], sender).join("\n")).toContain("**Proposed plan**"), {
      timeout: 5000,
    });

    // a dies (cut off from the database) while its plan waits; b takes the session over.
    gate.shut();
    await vi.waitFor(() => expect(b.store.ownership?.fenceFor(key)).toBeDefined(), { timeout: 8000 });

    // Plan mode is still on at b: its request says so and offers no deploy.
    await say(b, "what is left?", "p-3");
    await vi.waitFor(() => expect(saidInDm([b], sender)).toContain("ok"), { timeout: 5000 });
    const asked = b.model.calls.at(-1)?.context;
    expect(asked?.systemPrompt).toContain("Plan mode is on");
    expect((asked?.tools ?? []).map((tool) => tool.name)).not.toContain("deploy");

    // The plan a proposed is answered at b, whose new turn carries it out.
    await say(b, "/plan approve", "p-4");
    await vi.waitFor(() => expect(saidInDm([b], sender)).toContain("plan carried out"), { timeout: 5000 });
    expect(saidInDm([b], sender)).toContain("Plan approved: plan mode is off and the agent carries it out.");
    expect([a.deployed, b.deployed]).toEqual([[], ["staging"]]);
    const stored = await b.store.getSession(key);
    expect(stored?.settings.planMode).toBeUndefined();
  } finally {
    gate.open();
    await a.stop();
    await b.stop();
  }
});
