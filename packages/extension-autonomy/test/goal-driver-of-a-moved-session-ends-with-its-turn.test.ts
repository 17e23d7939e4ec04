import type { Model, StreamFn } from "@chorus/core";
import type { LaneItem } from "@chorus/gateway";
import { goalConfigSchema, SILENT_LOGGER } from "@chorus/gateway";
import { MemorySessionStore } from "@chorus/store";
import { expect, it } from "vitest";
import { GoalKeeper } from "../src/goals/goal-keeper.js";
import type { GoalRecord } from "../src/goals/goal-record.js";

const KEY = "main:main:test:dm:ann";
const CHAT = { channel: "test", accountId: "main", target: { chatType: "dm" as const, chatId: "dm-ann" } };

/**
 * A keeper driving one running autonomous goal whose first turn has started (its prompt taken from the lane), and the
 * driver's loop (tracked work) to watch for its end.
 */
async function keeperWithATurnRunning() {
  const store = new MemorySessionStore();
  const goal = {
    id: "goal-1",
    text: "count on",
    status: "active",
    setAt: 0,
    auto: {
      status: "running",
      maxTurns: 40,
      turns: 0,
      stuckCount: 0,
      supervisorFails: 0,
      trust: "owner",
      updatedAt: 0,
    },
  } satisfies GoalRecord;
  await store.ensureSession({ key: KEY, agentId: "main", channel: "test", accountId: "main", chatId: "dm-ann" });
  await store.updateSession(KEY, { settings: { goal } });
  const queued: LaneItem[] = [];
  const tracked: Promise<unknown>[] = [];
  const keeper = new GoalKeeper({
    store,
    logger: SILENT_LOGGER,
    now: Date.now,
    streamFn: (() => {
      throw new Error("no supervisor is asked here");
    }) as unknown as StreamFn,
    configFor: () => goalConfigSchema.parse({ autonomousEnabled: true, autonomousTurnDelayMs: 0 }),
    supervisorModel: () => ({}) as Model,
    cannotRun: () => undefined,
    accept: (_session, item) => queued.push(item),
    stopTurn: () => {},
    withdraw: () => {},
    notice: () => {},
    track: (work) => tracked.push(work),
  });
  await keeper.resumeAll();
  const driverLoop = tracked[0];
  if (driverLoop === undefined) throw new Error("no driver started");
  for (let i = 0; i < 100 && queued.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(queued).toHaveLength(1);
  keeper.turnStarted({ sessionKey: KEY, items: queued });
  return { keeper, queued, driverLoop };
}

/** Whether `work` ends within `ms`. */
async function endsWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([work.then(() => true), late]);
  } finally {
    clearTimeout(timer);
  }
}

it("ends with the turn that was running when this instance lost the goal's session", async () => {
  const { keeper, queued, driverLoop } = await keeperWithATurnRunning();
  // The session moved to another instance while the turn ran (its commit kept failing, then was refused).
  keeper.releaseNotOwned(() => false);
  keeper.turnEnded({ sessionKey: KEY, agentId: "main", chat: CHAT, items: queued, result: undefined });
  expect(await endsWithin(driverLoop, 2000)).toBe(true);
});

it("ends at shutdown when the turn under way at the session's move has not ended", async () => {
  const { keeper, driverLoop } = await keeperWithATurnRunning();
  keeper.releaseNotOwned(() => false);
  // The gateway stops: the turn is stopped, and the drivers still waiting for a turn are released.
  keeper.halt();
  keeper.release();
  expect(await endsWithin(driverLoop, 2000)).toBe(true);
});
