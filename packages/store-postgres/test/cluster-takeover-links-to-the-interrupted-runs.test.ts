import type { StreamContext } from "@chorus/core";
import { fakeModel, type ScriptedTurn, scriptedStreamFn } from "@chorus/core/testing";
import { Gateway, TestChannel } from "@chorus/gateway";
import type { RunRecord } from "@chorus/store";
import { captureTelemetry, type TelemetryCapture } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type ClusterMember, heldShards, saidInDm, sessionKeyOf, stopOnce } from "./fixtures/cluster-member.js";
import { databaseBehindAGate, openClusterStore } from "./fixtures/database-behind-a-gate.js";

const { gate, url } = await databaseBehindAGate();
let capture: TelemetryCapture;
beforeEach(() => {
  capture = captureTelemetry();
});
afterEach(async () => {
  await capture.stop();
});

type Span = ReturnType<TelemetryCapture["spans"]>[number];

const model = fakeModel();
const senders = Array.from({ length: 100 }, (_, i) => `ann-${i}`);
const config = {
  agents: [{ id: "main", model: model.id }],
  // Admins (owner tier) may spawn sub-agents.
  channels: [{ channel: "test", dmPolicy: "open" as const, admins: senders }],
};

/** The helper's task "slow" takes `SLOW_MS`: long enough for a takeover to find its run (or its parent's) running. */
const SLOW_MS = 3000;

/** What a message says: its text, or its content as JSON. */
function said(context: StreamContext): { role: string | undefined; text: string } {
  const last = context.messages.at(-1) as { role: string; content: unknown } | undefined;
  return { role: last?.role, text: typeof last?.content === "string" ? last.content : JSON.stringify(last?.content) };
}

/** "wait" spawns the slow helper and waits for it; "spawn" spawns it in the background. */
function firstOwner(context: StreamContext): ScriptedTurn {
  const { role, text } = said(context);
  if (role === "toolResult") return "spawned";
  if (text === "wait" || text === "spawn") {
    const mode = text === "wait" ? "wait" : "background";
    return { toolCalls: [{ name: "spawn_agent", args: { agent: "helper", task: "slow", mode } }] };
  }
  if (text === "slow") return { blocks: [{ type: "text", text: "slow result", delayMs: SLOW_MS }] };
  return "ok";
}

/** The instance that takes over answers the interrupted root run's message at once, and runs the helper alike. */
function takingOwner(context: StreamContext): ScriptedTurn {
  const { text } = said(context);
  if (text === "slow") return { blocks: [{ type: "text", text: "slow result", delayMs: SLOW_MS }] };
  if (text.startsWith("[Background sub-agent")) return "parent got it";
  return "answered after the takeover";
}

interface Instance extends ClusterMember {
  stop(): Promise<void>;
}

async function instance(
  name: string,
  throughGate: boolean,
  schema: string,
  script: (context: StreamContext) => ScriptedTurn,
): Promise<Instance> {
  const store = await openClusterStore(url(throughGate), name, schema);
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
  return { name, store, gateway, channel, stop: stopOnce(gateway, store) };
}

const owns = (one: Instance, key: string): boolean => one.store.ownership?.fenceFor(key) !== undefined;

/** A sender of a's says `text`; once a's run of `depth` is running (traced, its task stored), a loses the database. */
async function runAtAThenCutAOff(a: Instance, b: Instance, text: string, depth: number) {
  await vi.waitFor(() => expect([a, b].map((one) => heldShards(one) > 0)).toEqual([true, true]), { timeout: 5000 });
  const sender = senders.find((candidate) => owns(a, sessionKeyOf(a.gateway, candidate))) as string;
  const key = sessionKeyOf(a.gateway, sender);
  await a.channel.inject({ text, sender: { id: sender }, eventId: `${text}-1`, messageId: `${text}-1` });
  const running = await vi.waitFor(
    async () => {
      const runs = await a.store.listRuns({ status: "running" });
      const found = runs.find((run) => run.depth === depth);
      // The helper's task is stored: the parent's tool call (and its run) was committed before it.
      const child = runs.find((run) => run.depth === 1);
      expect(found?.traceparent).toBeDefined();
      expect(await a.store.readTranscript(child?.sessionKey as string)).toHaveLength(1);
      return found as RunRecord;
    },
    { timeout: 5000 },
  );
  gate.shut();
  await vi.waitFor(() => expect(owns(b, key)).toBe(true), { timeout: 8000 });
  return { key, sender, running };
}

/** The ids a stored W3C traceparent names. */
function idsOf(traceparent: string | undefined): { traceId: string; spanId: string } {
  const [, traceId, spanId] = (traceparent ?? "").split("-");
  return { traceId: traceId as string, spanId: spanId as string };
}

const ranAs = (spans: Span[], runId: string): Span | undefined =>
  spans.find((span) => span.name.startsWith("invoke_agent ") && span.attributes["chorus.run.id"] === runId);

describe("an instance that takes a session over from one cut off from the database", () => {
  it("answers the interrupted run's message in a turn whose span links to the interrupted run's", async () => {
    const a = await instance("a", true, "links_takeover", firstOwner);
    const b = await instance("b", false, "links_takeover", takingOwner);
    try {
      const { key, sender, running } = await runAtAThenCutAOff(a, b, "wait", 0);

      await vi.waitFor(() => expect(saidInDm([a, b], sender)).toContain("answered after the takeover"), {
        timeout: 20_000,
      });
      await b.gateway.idle();
      const runs = await b.store.listRuns({ sessionKey: key, status: ["interrupted", "completed"] });
      expect(runs.map((run) => run.status)).toEqual(["interrupted", "completed"]);
      const answer = runs[1] as RunRecord;
      const turn = ranAs(capture.spans(), answer.id) as Span;
      expect(turn.name).toBe("invoke_agent main");
      expect(turn.links).toEqual([
        {
          context: expect.objectContaining({ ...idsOf(running.traceparent), isRemote: true }),
          attributes: { "chorus.link.type": "resumes" },
          droppedAttributesCount: 0,
        },
      ]);
      // The answer is a trace of its own (the interrupted one belongs to the cut-off instance), stored with its run.
      expect(turn.spanContext().traceId).not.toBe(idsOf(running.traceparent).traceId);
      expect(idsOf(answer.traceparent)).toEqual({
        traceId: turn.spanContext().traceId,
        spanId: turn.spanContext().spanId,
      });
    } finally {
      gate.open();
      await a.stop();
      await b.stop();
    }
  }, 60_000);

  it("runs an interrupted background sub-agent again in a run whose span links to the interrupted sub-agent run's", async () => {
    const a = await instance("a", true, "links_rerun", firstOwner);
    const b = await instance("b", false, "links_rerun", takingOwner);
    try {
      const { sender, running: child } = await runAtAThenCutAOff(a, b, "spawn", 1);

      await vi.waitFor(() => expect(saidInDm([a, b], sender)).toContain("parent got it"), { timeout: 20_000 });
      await b.gateway.idle();
      const rerun = (await b.store.listRuns({ sessionKey: child.sessionKey })).find(
        (run) => run.id !== child.id,
      ) as RunRecord;
      expect(rerun.status).toBe("completed");
      const span = ranAs(capture.spans(), rerun.id) as Span;
      expect(span.name).toBe("invoke_agent helper");
      expect(span.links).toEqual([
        {
          context: expect.objectContaining({ ...idsOf(child.traceparent), isRemote: true }),
          attributes: { "chorus.link.type": "resumes" },
          droppedAttributesCount: 0,
        },
      ]);
      // The re-run's own span is stored with it as it starts, as the first run's was (what a later re-run links to).
      expect(idsOf(rerun.traceparent)).toEqual({
        traceId: span.spanContext().traceId,
        spanId: span.spanContext().spanId,
      });
    } finally {
      gate.open();
      await a.stop();
      await b.stop();
    }
  }, 60_000);
});
