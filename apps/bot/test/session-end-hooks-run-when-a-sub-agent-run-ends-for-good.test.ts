import type { HookEvent, StreamContext } from "@chorus/core";
import type { ScriptedTurn } from "@chorus/core/testing";
import {
  type HandedOffMessage,
  MemorySessionStore,
  type OwnershipEvent,
  type SessionOwnership,
  type StoreFence,
} from "@chorus/gateway";
import { type Harness, startHarness } from "@chorus/gateway-testing";
import { afterEach, describe, expect, it, vi } from "vitest";
import { sessionEndHooksExtension } from "../src/runtime/session-end-hooks.js";

// Issue #35 requirement 5, its third moment (seed 003 "Session end": "when the loop exits for any reason"): a
// sub-agent's session lives exactly one run, so when that run ends for good the parent agent's `session_end` hooks
// hear `reason: "run_ended"` — and a run a crash cut short, which a takeover runs again, is told only when it ends.

const ROOT = "main:main:test:dm:user-1";
const CONFIG = {
  agents: [{ id: "main", model: "fake-model" }],
  channels: [{ channel: "test" as const, dmPolicy: "open" as const, admins: ["admin"], allowFrom: ["user-1"] }],
};
const AGENTS = {
  main: {
    subagents: { helper: { description: "helps", tools: [] } },
    tiers: { trusted: { allow: ["group:fs-read", "group:info", "group:sessions"] } },
  },
};

/** "spawn <mode> <task>" spawns the helper; its task "quick" answers at once, "slow" after 3 s. */
function script(context: StreamContext): ScriptedTurn {
  const last = context.messages.at(-1) as { role: string; content: unknown } | undefined;
  const said = typeof last?.content === "string" ? last.content : JSON.stringify(last?.content);
  if (last?.role === "toolResult") return "done";
  const spawn = /spawn (wait|background) (\S+)/.exec(said);
  if (spawn !== null) {
    return { toolCalls: [{ name: "spawn_agent", args: { agent: "helper", task: spawn[2], mode: spawn[1] } }] };
  }
  if (said === "slow") return { blocks: [{ type: "text", text: "slow result", delayMs: 3000 }] };
  if (said === "quick") return "quick result";
  return "noted";
}

/** The `session_end` events the agent "main"'s hooks heard (an in-process hook: the runner is the same). */
function recordingHooks() {
  const heard: HookEvent[] = [];
  const extension = sessionEndHooksExtension({
    main: {
      session_end: [
        (event) => {
          heard.push(event);
          return undefined;
        },
      ],
    },
  });
  return { heard, extension };
}

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe("session_end hooks when a sub-agent's run ends for good", () => {
  it("a sub-agent that completes (background or waited for) runs the parent agent's hook once, with its session", async () => {
    const { heard, extension } = recordingHooks();
    h = await startHarness({ config: CONFIG, script, gateway: { agents: AGENTS, extensions: [extension] } });
    await h.send({ text: "spawn background quick", sender: { id: "user-1" } });
    await h.send({ text: "spawn wait quick", sender: { id: "user-1" } });
    await h.gateway.idle();

    const children = (await h.store.listRuns()).filter((run) => run.depth === 1);
    expect(children.map((run) => run.status)).toEqual(["completed", "completed"]);
    expect(heard).toHaveLength(2);
    expect(new Set(heard)).toEqual(
      new Set(
        children.map((run) => ({
          event: "session_end",
          sessionId: run.sessionKey,
          agent: "helper",
          reason: "run_ended",
        })),
      ),
    );
    // The chat's own session goes on: it did not end.
    expect(heard.some((event) => event.event === "session_end" && event.sessionId === ROOT)).toBe(false);
  });

  it("a sub-agent stopped by /agents kill runs the hook once, and the killed chat run does not", async () => {
    const { heard, extension } = recordingHooks();
    h = await startHarness({ config: CONFIG, script, gateway: { agents: AGENTS, extensions: [extension] } });
    await h.channel.inject({ text: "spawn wait slow", sender: { id: "user-1" } });
    const harness = h;
    await vi.waitFor(async () => expect(await harness.store.listRuns({ status: "running" })).toHaveLength(2));
    const runs = await h.store.listRuns({ status: "running" });
    const root = runs.find((run) => run.depth === 0)!;
    const child = runs.find((run) => run.depth === 1)!;
    await h.channel.inject({ text: `/agents kill ${root.id}`, sender: { id: "admin" } });
    await h.gateway.idle();

    expect((await h.store.getRun(child.id))?.status).toBe("aborted");
    expect(heard).toEqual([
      { event: "session_end", sessionId: child.sessionKey, agent: "helper", reason: "run_ended" },
    ]);
  });

  it("a background sub-agent a crash interrupted is not told then; run again after a takeover, it is told once", async () => {
    const { heard, extension } = recordingHooks();
    const ownership = new FakeOwnership();
    const store = Object.assign(new MemorySessionStore(), { ownership });
    // What the crashed instance left: the chat's run and its background helper, both running, the helper's task stored.
    const where = { channel: "test", accountId: "main", chatId: "user-1" };
    await store.ensureSession({ key: ROOT, agentId: "main", ...where, title: "spawn background quick" });
    const parent = await store.startRun({ id: "run_parent", sessionKey: ROOT, agentId: "main" });
    const childKey = `agent:helper:sub:1:run_child:${ROOT}`;
    await store.ensureSession({ key: childKey, agentId: "helper", ...where, title: "quick" });
    await store.startRun({
      id: "run_child",
      sessionKey: childKey,
      agentId: "helper",
      parentRunId: parent.id,
      spawn: { background: true, trustTier: "trusted" },
    });
    await store.appendMessages(childKey, [{ role: "user", content: "quick", timestamp: 1 }]);
    const interrupted = await store.interruptRunningRuns("the instance died");

    h = await startHarness({ config: CONFIG, script, store, gateway: { agents: AGENTS, extensions: [extension] } });
    await h.gateway.idle();
    expect(heard).toEqual([]);

    ownership.owned.add(ROOT);
    ownership.listener?.({
      type: "gained",
      shards: [1],
      interruptedRuns: interrupted,
      requeuedOutbox: [],
      unanswered: [],
    });
    await h.gateway.idle();
    const rerun = (await store.listRuns()).find((run) => run.sessionKey === childKey && run.id !== "run_child");
    expect(rerun?.status).toBe("completed");
    expect(heard).toEqual([{ event: "session_end", sessionId: childKey, agent: "helper", reason: "run_ended" }]);
  });
});

/** A hand-driven `SessionOwnership`: the test says which sessions are owned and sends the events. */
class FakeOwnership implements SessionOwnership {
  readonly instanceId = "test";
  readonly owned = new Set<string>();
  listener: ((event: OwnershipEvent) => void) | undefined;
  async start(listener: (event: OwnershipEvent) => void): Promise<void> {
    this.listener = listener;
  }
  fenceFor(sessionKey: string): StoreFence | undefined {
    return this.owned.has(sessionKey) ? { epoch: 1 } : undefined;
  }
  async handOff(_message: HandedOffMessage): Promise<void> {}
  async stop(): Promise<void> {}
}
