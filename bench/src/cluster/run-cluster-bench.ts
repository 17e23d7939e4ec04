import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_LEASE_MS } from "@chorus/store-postgres";
import { createScratchDatabase, queryOnce, TEST_SERVER, waitForShardsSettled } from "@chorus/store-postgres/testing";
import { freePort, startRoundRobinBalancer } from "@chorus/testkit";
import { percentile } from "../measure/stats.js";
import { type ChatWorkload, playChatWorkload } from "../side-by-side/chat-workload.js";
import { chorusSystem } from "../side-by-side/chorus-system.js";
import { modelAnswer, startBenchModel } from "../side-by-side/fake-model.js";
import { nextMessageKey, ReplyLedger } from "../side-by-side/reply-ledger.js";
import { startTelegramBenchPlatform, type TelegramBenchPlatform } from "../side-by-side/telegram-bench-platform.js";
import {
  CLUSTER_WEBHOOK_SECRET,
  type ClusterInstance,
  type ClusterRun,
  clusterWebhookUrl,
  startClusterInstance,
} from "./cluster-instance.js";
import { routeToOwners } from "./owner-routing.js";
import { serverTransactions } from "./postgres-round-trips.js";

/** Sizes of one `cluster` run (flags `--chats`, `--messages`, `--kills`, `--lease-ms`). */
export interface ClusterBenchOptions {
  readonly chats: number;
  readonly messagesPerChat: number;
  readonly kills: number;
  /** The instances' `leaseMs`; undefined: not in their config (the store's default, `DEFAULT_LEASE_MS`). */
  readonly leaseMs: number | undefined;
  /** Most instances on PostgreSQL (1 … this many are measured). */
  readonly maxInstances: number;
  /** Where the PostgreSQL instances write `node --cpu-prof` profiles (on their graceful stop); none when undefined. */
  readonly cpuProfileDir?: string;
  /** Rounds of SQLite ×1 and PostgreSQL ×1 measured in turns (a paired comparison); 0: none. */
  readonly pairedRounds: number;
}

export const DEFAULT_CLUSTER_OPTIONS: ClusterBenchOptions = {
  chats: 20,
  messagesPerChat: 10,
  kills: 10,
  leaseMs: undefined,
  maxInstances: 3,
  pairedRounds: 5,
};

/** One throughput row: a store and a number of instances. */
export interface ThroughputRow {
  readonly label: string;
  readonly instances: number;
  readonly messagesPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly replies: number;
  readonly injected: number;
  readonly duplicates: number;
  /** Server transactions (≈ round trips, see postgres-round-trips.ts) per message, idle background subtracted. */
  readonly roundTripsPerMessage: number | undefined;
  /**
   * The same for messages taken by their session's owner: the balancer routing each chat to its owner (with one
   * instance every message is, so it is `roundTripsPerMessage`).
   */
  readonly ownerTakenRoundTripsPerMessage: number | undefined;
}

/** One paired round: SQLite ×1 and PostgreSQL ×1 (cluster) measured one right after the other, msg/s. */
export interface PairedRound {
  readonly sqlite: number;
  readonly postgres: number;
}

/** What a `cluster` run measured. */
export interface ClusterBenchResult {
  readonly throughput: readonly ThroughputRow[];
  readonly paired: readonly PairedRound[];
  /** kill -9 → the first answer, from another instance, to a message sent to the dead instance's session; ms, sorted. */
  readonly failoverMs: readonly number[];
  readonly failoverLost: number;
}

/** How long the background statement rate is measured before each PostgreSQL row. */
const IDLE_WINDOW_MS = 10_000;
/**
 * How long after some work its statements surely show in `pg_stat_database`: a backend flushes its counters at most
 * once a second, and waits up to 10 s (PGSTAT_IDLE_INTERVAL) when another backend holds the shared stats lock.
 */
const STATS_FLUSH_MS = 11_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Plays `workload` against whatever the fake's webhook points at; the counts and latencies. */
async function measure(platform: TelegramBenchPlatform, workload: ChatWorkload) {
  const ledger = new ReplyLedger();
  platform.onOutbound((message) => ledger.observe(message));
  try {
    const timing = await playChatWorkload(
      workload,
      { inject: (chat, text) => platform.inject(chat, text), expectedReply: (_text, key) => modelAnswer(key) },
      ledger,
    );
    await sleep(300);
    const counts = ledger.counts();
    const seconds = Math.max(1e-3, (timing.endedAt - timing.startedAt) / 1000);
    return { timing, counts, messagesPerSecond: counts.replies / seconds };
  } finally {
    platform.onOutbound(undefined);
  }
}

/**
 * Issue #18's cluster benchmark, in one run against one fake Telegram and one fake model: 1 `chorus start` on SQLite,
 * then 1, 2 and 3 instances on one PostgreSQL database (cluster mode) behind a round-robin balancer, each on fresh
 * chats; then `kills` times: kill -9 an instance, send a message to a chat whose session it owned, time the answer
 * from another instance, start the instance again. The database is created for the run and dropped after it.
 * Contract: throws when something could not start; losses and duplicates are reported, not thrown.
 */
export async function runClusterBench(
  options: ClusterBenchOptions,
  progress: (line: string) => void,
): Promise<ClusterBenchResult> {
  const dir = await mkdtemp(join(tmpdir(), "chorus-bench-cluster-"));
  const database = await createScratchDatabase();
  const adminUrl = `postgres://${TEST_SERVER.user}@${TEST_SERVER.host}:${TEST_SERVER.port}/test`;
  const platform = await startTelegramBenchPlatform();
  const model = await startBenchModel();
  const ports: number[] = [];
  const balancer = await startRoundRobinBalancer(ports);
  const instances: ClusterInstance[] = [];
  const throughput: ThroughputRow[] = [];
  const paired: PairedRound[] = [];
  let sqlite: Awaited<ReturnType<typeof chorusSystem.start>> | undefined;
  let firstChat = 0;
  const workload = (chats: number, messagesPerChat: number): ChatWorkload => {
    const next = { chats, messagesPerChat, maxOutstanding: chats, firstChat, replyTimeoutMs: 20_000 };
    firstChat += chats;
    return next;
  };
  try {
    // SQLite: the side-by-side part's Chorus system as it is.
    progress("cluster: 1 instance on SQLite");
    // Kept running (idle) until the paired rounds after the first PostgreSQL row.
    sqlite = await chorusSystem.start({
      platform,
      model,
      runId: "cluster-sqlite",
      chatSdkConcurrency: "concurrent",
    });
    await measure(platform, workload(options.chats, 2));
    const sqliteResult = await measure(platform, workload(options.chats, options.messagesPerChat));
    throughput.push(row("SQLite", 1, sqliteResult, undefined));

    /** `rounds` rounds, each measuring both systems on fresh chats, the first of them alternating. */
    const pairedRounds = async (
      rounds: number,
      pointAtSqlite: () => Promise<void>,
      pointAtPostgres: () => Promise<void>,
      announce: (round: number) => Promise<void>,
    ): Promise<PairedRound[]> => {
      const out: PairedRound[] = [];
      for (let round = 0; round < rounds; round++) {
        await announce(round);
        const measured = { sqlite: 0, postgres: 0 };
        const order: ("sqlite" | "postgres")[] = round % 2 === 0 ? ["sqlite", "postgres"] : ["postgres", "sqlite"];
        for (const system of order) {
          await (system === "sqlite" ? pointAtSqlite() : pointAtPostgres());
          await measure(platform, workload(options.chats, 1));
          measured[system] = (
            await measure(platform, workload(options.chats, options.messagesPerChat))
          ).messagesPerSecond;
        }
        out.push(measured);
      }
      return out;
    };

    const run: ClusterRun = {
      dir,
      telegram: platform.fake,
      model,
      databaseUrl: database.url,
      publicUrl: balancer.url,
      leaseMs: options.leaseMs,
      ...(options.cpuProfileDir === undefined ? {} : { cpuProfileDir: options.cpuProfileDir }),
    };
    const addInstance = async (name: string, port: number): Promise<ClusterInstance> => {
      const instance = await startClusterInstance(run, name, port);
      if (!ports.includes(port)) ports.push(port);
      return instance;
    };
    for (let n = 1; n <= options.maxInstances; n++) {
      progress(`cluster: ${n} instance(s) on PostgreSQL`);
      instances.push(await addInstance(`i${n}`, await freePort()));
      await waitForShardsSettled(database.url, n);
      await measure(platform, workload(options.chats, 2));
      // The rate of background statements (lease beats, every instance's 5 s sweep), to subtract from the measured
      // window: over 10 s, so that it holds two sweeps of each instance rather than a lucky zero or one. Every reading
      // comes a flush delay after the work it must include (see postgres-round-trips.ts).
      await sleep(STATS_FLUSH_MS);
      const idleStart = await serverTransactions(adminUrl, database.name);
      const idleAt = performance.now();
      await sleep(IDLE_WINDOW_MS);
      const before = await serverTransactions(adminUrl, database.name);
      const at = performance.now();
      const idlePerMs = (before - idleStart) / (at - idleAt);
      const result = await measure(platform, workload(options.chats, options.messagesPerChat));
      await sleep(STATS_FLUSH_MS);
      const after = await serverTransactions(adminUrl, database.name);
      const afterAt = performance.now();
      const background = idlePerMs * (afterAt - at);
      const perMessage = (after - before - background) / Math.max(1, result.counts.replies);
      // With several instances, round robin hands most messages to a non-owner: the owner's path is measured apart,
      // on fresh chats routed to their owners.
      let ownerTaken = perMessage;
      if (n > 1) {
        balancer.routeBy(await routeToOwners(database.url, instances));
        const routed = await measure(platform, workload(options.chats, options.messagesPerChat));
        balancer.routeBy(undefined);
        await sleep(STATS_FLUSH_MS);
        const end = await serverTransactions(adminUrl, database.name);
        const routedBackground = idlePerMs * (performance.now() - afterAt);
        ownerTaken = (end - after - routedBackground) / Math.max(1, routed.counts.replies);
      }
      throughput.push(row("PostgreSQL (cluster)", n, result, { all: perMessage, ownerTaken }));
      if (n === 1 && sqlite !== undefined) {
        const pointAtPostgres = () => platform.setWebhook(clusterWebhookUrl(run), CLUSTER_WEBHOOK_SECRET);
        await pairedRounds(options.pairedRounds, sqlite.activate, pointAtPostgres, async (round) => {
          progress(`cluster: paired round ${round + 1} of ${options.pairedRounds} (SQLite ×1, PostgreSQL ×1)`);
        }).then((rounds) => paired.push(...rounds));
        await sqlite.stop();
        sqlite = undefined;
        await pointAtPostgres();
      }
    }

    progress(`cluster: ${options.kills} × kill -9 with leaseMs ${options.leaseMs ?? `${DEFAULT_LEASE_MS} (default)`}`);
    const failoverMs: number[] = [];
    let failoverLost = 0;
    for (let k = 0; k < options.kills; k++) {
      const index = k % instances.length;
      const victim = instances[index] as ClusterInstance;
      await waitForShardsSettled(database.url, instances.length);
      const chat = await chatOwnedBy(database.url, victim.name, firstChat);
      firstChat = chat + 1;
      const ledger = new ReplyLedger();
      platform.onOutbound((message) => ledger.observe(message));
      try {
        process.kill(victim.bot.pid, "SIGKILL");
        const killedAt = performance.now();
        await victim.bot.stop();
        const key = nextMessageKey();
        const sentAfterMs = performance.now() - killedAt;
        const answered = ledger.expect(key, modelAnswer(key), 30_000);
        await platform.inject(chat, `hello ${key}`);
        const latency = await answered;
        if (latency === undefined) failoverLost += 1;
        else failoverMs.push(sentAfterMs + latency);
        progress(`  kill ${k + 1}: ${victim.name} → ${latency === undefined ? "LOST" : "answered"}`);
      } finally {
        platform.onOutbound(undefined);
      }
      instances[index] = await addInstance(victim.name, victim.port);
    }
    failoverMs.sort((a, b) => a - b);
    return { throughput, paired, failoverMs, failoverLost };
  } finally {
    await sqlite?.stop();
    for (const instance of instances) await instance.bot.stop();
    await balancer.close();
    await platform.close();
    await model.close();
    await database.drop();
    await rm(dir, { recursive: true, force: true });
  }
}

function row(
  label: string,
  instances: number,
  result: Awaited<ReturnType<typeof measure>>,
  roundTrips: { all: number; ownerTaken: number } | undefined,
): ThroughputRow {
  const latencies = result.timing.latencies;
  return {
    label,
    instances,
    messagesPerSecond: result.messagesPerSecond,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    replies: result.counts.replies,
    injected: result.counts.injected,
    duplicates: result.counts.duplicates,
    roundTripsPerMessage: roundTrips?.all,
    ownerTakenRoundTripsPerMessage: roundTrips?.ownerTaken,
  };
}

/** The first chat number ≥ `from` whose session's shard instance `name` holds (chat n is Telegram user 60 000 + n). */
async function chatOwnedBy(url: string, name: string, from: number): Promise<number> {
  const candidates = Array.from({ length: 500 }, (_, i) => from + i);
  const { rows } = await queryOnce(
    url,
    `SELECT c AS chat FROM unnest($1::int[]) c JOIN shard_leases l
       ON l.shard = chorus_shard('assistant:main:telegram:dm:' || (60000 + c)) WHERE l.owner LIKE $2 ORDER BY c LIMIT 1`,
    [candidates, `${name}#%`],
  );
  const chat = rows[0]?.chat;
  if (chat === undefined) throw new Error(`instance ${name} owns none of 500 chats' sessions`);
  return Number(chat);
}
