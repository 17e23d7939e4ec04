import type { AgentMessage } from "@chorus/core";
import type { SessionStore } from "../session-store.js";

/** What `measureSessionStore` found; times in milliseconds. */
export interface SessionStoreMeasurement {
  /** One turn (2 messages + 1 outbox entry) committed with `commitTurn`: mean and worst over `turns`. */
  readonly commitTurnMeanMs: number;
  readonly commitTurnMaxMs: number;
  /** Reading the whole `2 × turns`-message transcript in one call: mean over `reads`. */
  readonly readTranscriptMeanMs: number;
  readonly transcriptLength: number;
  /** The burst: `burstWrites` single-message appends spread over 100 sessions. */
  readonly burstWrites: number;
  readonly burstTotalMs: number;
  /** The longest a single store call kept the event loop busy (its synchronous part) during the burst. */
  readonly longestSyncCallMs: number;
  /** The same, at the 99th and 99.9th percentiles (on a shared machine the maximum is often the OS, not the store). */
  readonly p99SyncCallMs: number;
  readonly p999SyncCallMs: number;
}

/** How much work `measureSessionStore` does. */
export interface MeasureOptions {
  /** Turns to commit into the measured session (200 messages by default). */
  turns?: number;
  reads?: number;
  burstWrites?: number;
}

/**
 * Measures a store the way the gateway loads it: committing turns, reading a whole transcript, and a burst of writes
 * with the longest synchronous call (the time the event loop is blocked). For `bench/`; not a test.
 * Contract: writes sessions with keys starting `bench:` into `store`; leaves the store open.
 */
export async function measureSessionStore(
  store: SessionStore,
  options: MeasureOptions = {},
): Promise<SessionStoreMeasurement> {
  const turns = options.turns ?? 100;
  const reads = options.reads ?? 50;
  const burstWrites = options.burstWrites ?? 10_000;
  const key = "bench:main:dm:measured";
  await store.ensureSession({ key, agentId: "main", channel: "bench", accountId: "bench", chatId: "measured" });

  let commitTotal = 0;
  let commitMax = 0;
  for (let turn = 1; turn <= turns; turn++) {
    const started = performance.now();
    await store.commitTurn({
      sessionKey: key,
      messages: [benchMessage(`question ${turn}`), benchMessage(`answer ${turn}`)],
      outbox: [{ sessionKey: key, kind: "reply", payload: { text: `answer ${turn}` } }],
    });
    const took = performance.now() - started;
    commitTotal += took;
    commitMax = Math.max(commitMax, took);
  }

  let readTotal = 0;
  let transcriptLength = 0;
  for (let i = 0; i < reads; i++) {
    const started = performance.now();
    transcriptLength = (await store.readTranscript(key)).length;
    readTotal += performance.now() - started;
  }

  const burstKeys = Array.from({ length: 100 }, (_, i) => `bench:main:dm:burst-${i}`);
  for (const burstKey of burstKeys) {
    await store.ensureSession({
      key: burstKey,
      agentId: "main",
      channel: "bench",
      accountId: "bench",
      chatId: burstKey,
    });
  }
  const syncCallMs = new Float64Array(burstWrites);
  const burstStarted = performance.now();
  for (let i = 0; i < burstWrites; i++) {
    const started = performance.now();
    const pending = store.appendMessages(burstKeys[i % burstKeys.length] as string, [benchMessage(`burst ${i}`)]);
    syncCallMs[i] = performance.now() - started;
    await pending;
  }
  const burstTotalMs = performance.now() - burstStarted;
  syncCallMs.sort();

  return {
    commitTurnMeanMs: commitTotal / turns,
    commitTurnMaxMs: commitMax,
    readTranscriptMeanMs: readTotal / reads,
    transcriptLength,
    burstWrites,
    burstTotalMs,
    longestSyncCallMs: syncCallMs[burstWrites - 1] ?? 0,
    p99SyncCallMs: percentile(syncCallMs, 0.99),
    p999SyncCallMs: percentile(syncCallMs, 0.999),
  };
}

function percentile(sorted: Float64Array, fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? 0;
}

/** A chat-sized message (~300 characters), like a typical user question or short reply. */
function benchMessage(text: string): AgentMessage {
  return { role: "user", content: `${text}: ${"lorem ipsum dolor sit amet ".repeat(11)}`, timestamp: 0 };
}
