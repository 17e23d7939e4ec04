import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { StreamContext } from "@chorus/core";
import { fakeModel, type ScriptedTurn, scriptedStreamFn } from "@chorus/core/testing";
import { autonomyExtension, goalOf, SUPERVISOR_SYSTEM_PROMPT } from "@chorus/extension-autonomy";
import { Gateway, type SessionStore, TestChannel } from "@chorus/gateway";
import { PostgresSessionStore } from "@chorus/store-postgres";
import { createScratchDatabase, type ScratchDatabase } from "@chorus/store-postgres/testing";
import { SqliteSessionStore } from "@chorus/store-sqlite";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

const KEY = "main:main:test:dm:admin";
const model = fakeModel();
const CONFIG = {
  agents: [
    {
      id: "main",
      model: model.id,
      goals: { autonomousEnabled: true, verifyInterval: 1, autonomousTurnDelayMs: 1 },
    },
  ],
  channels: [{ channel: "test", dmPolicy: "open" as const, admins: ["admin"] }],
};

function text(content: unknown): string {
  return typeof content === "string" ? content : JSON.stringify(content);
}

/** Autonomous turn N answers "step N" (turn `hangAt` hangs); the supervisor says achieved from step 5 on. */
function script(hangAt?: number) {
  return (context: StreamContext): ScriptedTurn => {
    const said = text(context.messages.at(-1)?.content);
    if (context.systemPrompt === SUPERVISOR_SYSTEM_PROMPT) {
      const steps = [...said.matchAll(/step (\d+)/g)].map((match) => Number(match[1]));
      const last = steps.at(-1) ?? 0;
      return JSON.stringify({ achieved: last >= 5, reason: `at step ${last}` });
    }
    const turn = Number(/turn (\d+) of/.exec(said)?.[1] ?? 0);
    if (turn === hangAt) return { blocks: [{ type: "text", text: "slow", delayMs: 60_000 }] };
    return `step ${turn}`;
  };
}

function turnsAsked(calls: readonly { context: StreamContext }[]): number[] {
  return calls.flatMap(({ context }) => {
    const match = /^\[Autonomous goal, turn (\d+) of/.exec(text(context.messages.at(-1)?.content));
    return match === null || context.systemPrompt === SUPERVISOR_SYSTEM_PROMPT ? [] : [Number(match[1])];
  });
}

let dir: string;
let database: ScratchDatabase;
beforeAll(async () => {
  database = await createScratchDatabase();
});
afterAll(async () => {
  await database?.drop();
});
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "chorus-goal-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Each durable store, opened afresh on the same data as a new process would. */
const STORES: Record<string, () => Promise<SessionStore>> = {
  SQLite: async () => SqliteSessionStore.open({ path: join(dir, "chorus.db") }),
  PostgreSQL: () => PostgresSessionStore.open({ url: database.url, schema: `goal_${randomSchemaSuffix()}` }),
};

let schemaSuffix = "";
function randomSchemaSuffix(): string {
  return schemaSuffix;
}

describe.each(Object.keys(STORES))("an autonomous goal on the %s store", (kind) => {
  beforeEach(() => {
    schemaSuffix = Math.random().toString(36).slice(2, 10);
  });

  async function start(hangAt?: number) {
    const store = await STORES[kind]!();
    const channel = new TestChannel({ id: "test", accountId: "main" });
    const streamFn = scriptedStreamFn(script(hangAt));
    const gateway = new Gateway({
      config: CONFIG,
      store,
      channels: [channel],
      streamFn,
      models: { find: (id) => (id === model.id ? model : undefined), list: () => [model] },
      replyMode: "block",
      extensions: [autonomyExtension()],
    });
    await gateway.start();
    return { store, channel, streamFn, gateway };
  }

  it("is resumed once by the next process and finishes there", async () => {
    const first = await start(3);
    await first.channel.inject({ text: "/goal create --auto --turns 10 five steps", sender: { id: "admin" } });
    await vi.waitFor(() => expect(turnsAsked(first.streamFn.calls)).toContain(3), { interval: 5 });
    await first.gateway.stop(0);
    await first.store.close();

    const second = await start();
    await second.gateway.idle();
    // Turn 3 (cut short by the first process's shutdown) runs again, once. The supervisor's verdict on turn 5 may come
    // after turn 6 started (the driver never waits for it): that turn is stopped, or counted if it had already ended.
    const asked = turnsAsked(second.streamFn.calls);
    expect(asked.slice(0, 3)).toEqual([3, 4, 5]);
    expect(asked.length === 3 || (asked.length === 4 && asked[3] === 6)).toBe(true);
    const session = await second.store.getSession(KEY);
    const goal = goalOf(session!.settings);
    expect(goal).toMatchObject({
      status: "completed",
      completedBy: "supervisor",
      auto: { status: "achieved", lastVerdict: { achieved: true, reason: "at step 5", turn: 5 } },
    });
    expect([5, 6]).toContain(goal?.auto?.turns);
    expect(second.channel.transcript("dm-admin")).toContain("✓ Goal completed: five steps (the supervisor: at step 5)");
    await second.gateway.stop(0);
    await second.store.close();
  });
});
