import { MemorySessionStore, type SessionStore, TestChannel } from "@chorus/gateway";
import { type GatewayLike, type GatewayWorkloadResult, measureGatewayWorkload } from "../measure/gateway-workload.js";
import { formatNumber, formatRatio } from "../report/format-number.js";
import type { ReportTable } from "../report/report-types.js";
import type { BenchSuite } from "./bench-suite.js";

const WORKLOAD = { sessions: 1000, messagesPerSession: 5 };
const WARMUP = { sessions: 200, messagesPerSession: 2 };
const ROUNDS = 3;
const GOAL_MSG_PER_S = 5000;
const GOAL_HEAP_BYTES = 20 * 1024;

/** A store to run the workload on: the in-memory one here; a store suite adds SQLite. */
export interface GatewayBenchStore {
  name: string;
  create(): SessionStore | Promise<SessionStore>;
}

type GatewayConstructor = new (options: Record<string, unknown>) => GatewayLike;

/** Loads the Gateway class from @chorus/gateway's public API. Contract: undefined when it is not exported (yet). */
export async function loadGatewayClass(): Promise<GatewayConstructor | undefined> {
  const module = (await import("@chorus/gateway")) as Record<string, unknown>;
  return typeof module.Gateway === "function" ? (module.Gateway as GatewayConstructor) : undefined;
}

/** Runs the gateway workload once per store (after a warm-up). Contract: needs node --expose-gc. */
export async function runGatewayWorkload(
  stores: readonly GatewayBenchStore[],
  progress: (line: string) => void,
): Promise<{ store: string; result: GatewayWorkloadResult | undefined }[]> {
  const Gateway = await loadGatewayClass();
  const out: { store: string; result: GatewayWorkloadResult | undefined }[] = [];
  for (const store of stores) {
    if (Gateway === undefined) {
      out.push({ store: store.name, result: undefined });
      continue;
    }
    const deps = {
      createGateway: (options: Record<string, unknown>) => new Gateway(options),
      createChannel: () => new TestChannel({ id: "bench", accountId: "main" }),
      createStore: store.create,
    };
    progress(`${store.name}: warm-up`);
    await measureGatewayWorkload(deps, WARMUP);
    const rounds: GatewayWorkloadResult[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      progress(
        `${store.name}: round ${round}/${ROUNDS}, ${WORKLOAD.sessions} sessions × ${WORKLOAD.messagesPerSession} messages`,
      );
      rounds.push(await measureGatewayWorkload(deps, WORKLOAD));
    }
    // The round with the median throughput, so that its numbers belong together.
    rounds.sort((a, b) => a.messagesPerSecond - b.messagesPerSecond);
    out.push({ store: store.name, result: rounds[Math.floor(rounds.length / 2)] });
  }
  return out;
}

/** The gateway table; the first store is the reference for the ratio column. */
export function gatewayTable(rows: { store: string; result: GatewayWorkloadResult | undefined }[]): ReportTable {
  const reference = rows[0]?.result?.messagesPerSecond;
  return {
    title: `Gateway: ${formatNumber(WORKLOAD.sessions, 0)} concurrent DM sessions × ${WORKLOAD.messagesPerSession} messages, TestChannel, zero-latency scripted model`,
    headers: ["store", "msg/s", `vs ${rows[0]?.store ?? "first"}`, "p50 ms", "p99 ms", "heap / idle session", "goals"],
    rows: rows.map(({ store, result }) => {
      if (result === undefined) return [store, "n/a (Gateway not exported from @chorus/gateway)"];
      const goals = [
        `≥ ${formatNumber(GOAL_MSG_PER_S, 0)} msg/s: ${result.messagesPerSecond >= GOAL_MSG_PER_S ? "met" : "MISSED"}`,
        `≤ 20 KB: ${result.heapBytesPerIdleSession <= GOAL_HEAP_BYTES ? "met" : "MISSED"}`,
      ].join(" · ");
      return [
        store,
        formatNumber(result.messagesPerSecond, 0),
        reference === undefined ? "" : formatRatio(result.messagesPerSecond / reference),
        formatNumber(result.p50Ms, 2),
        formatNumber(result.p99Ms, 2),
        `${formatNumber(result.heapBytesPerIdleSession / 1024, 1)} KB`,
        goals,
      ];
    }),
    notes: [
      `the round with the median msg/s of ${ROUNDS}, after a warm-up; each user sends its next message when the reply to the previous one arrives; all users at once; global cap 8 turns`,
      "latency: inbound injected → reply sent by the channel; msg/s: messages answered / wall time",
      "heap / idle session: heapUsed growth across the run after forced GC, once every Agent was evicted; includes what the store holds in the heap (all of it for the in-memory store: session, transcript, runs, outbox, event ids)",
    ],
  };
}

/** A gateway suite over the given stores (a store suite passes SQLite next to memory). */
export function createGatewaySuite(stores: readonly GatewayBenchStore[]): BenchSuite {
  return {
    name: "gateway",
    description: "gateway throughput, reply latency and heap per idle session (TestChannel, scripted model)",
    async run(progress) {
      return { suite: "gateway", tables: [gatewayTable(await runGatewayWorkload(stores, progress))] };
    },
  };
}

/** The registered suite: the in-memory store. */
export const gatewaySuite: BenchSuite = createGatewaySuite([
  { name: "MemorySessionStore", create: () => new MemorySessionStore() },
]);
