import { monitorEventLoopDelay } from "node:perf_hooks";
import { type SessionStore, StoreHousekeeper } from "@chorus/gateway";

/** A store whose clock the measurement moves. */
export interface ClockedStore {
  store: SessionStore;
  clock: { now: number };
}

export interface PruneBacklogResult {
  inboundEvents: number;
  sentOutbox: number;
  steps: number;
  sweepMs: number;
  /** The longest the event loop waited during the sweep: the longest any one step blocked it. */
  maxEventLoopDelayMs: number;
}

const HOUR = 60 * 60 * 1000;

/**
 * A day's backlog for the housekeeper: `rows` inbound event ids and `rows` sent outbox entries, all past their TTL and
 * retention, then one `StoreHousekeeper` sweep with the default step size while the event loop's delay is sampled.
 */
export async function measurePruneBacklog(open: () => ClockedStore, rows: number): Promise<PruneBacklogResult> {
  const { store, clock } = open();
  try {
    const sessionKey = "bench:prune";
    await store.ensureSession({ key: sessionKey, agentId: "main", channel: "bench", accountId: "main", chatId: "c" });
    const events: Promise<boolean>[] = [];
    for (let i = 0; i < rows; i++) {
      events.push(store.recordInboundEvent({ channel: "bench", accountId: "main", eventId: `e${i}` }));
    }
    await Promise.all(events);
    const payload = { channel: "bench", accountId: "main", target: { chatType: "dm", chatId: "c" }, text: "ok" };
    for (let done = 0; done < rows; done += 500) {
      const { outbox } = await store.commitTurn({
        sessionKey,
        messages: [],
        outbox: Array.from({ length: Math.min(500, rows - done) }, () => ({ sessionKey, kind: "reply", payload })),
        claimOutbox: true,
      });
      await Promise.all(outbox.map((entry) => store.markOutboxSent(entry.id, ["m"])));
    }
    clock.now += 25 * HOUR;

    let steps = 0;
    const counting: SessionStore = Object.create(store) as SessionStore;
    counting.pruneInboundEvents = (limit) => {
      steps++;
      return store.pruneInboundEvents(limit);
    };
    counting.pruneSentOutbox = (before, limit) => {
      steps++;
      return store.pruneSentOutbox(before, limit);
    };
    const housekeeper = new StoreHousekeeper({ store: counting, now: () => clock.now });
    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    const started = performance.now();
    const swept = await housekeeper.sweep();
    const sweepMs = performance.now() - started;
    delay.disable();
    await housekeeper.stop();
    return { ...swept, steps, sweepMs, maxEventLoopDelayMs: delay.max / 1e6 };
  } finally {
    await (store as { close?: () => Promise<void> }).close?.();
  }
}
