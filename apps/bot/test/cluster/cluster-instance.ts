import type { Channel } from "@chorus/gateway";
import { type ChannelGateway, startChannelGateway } from "@chorus/gateway-testing";
import { PostgresSessionStore } from "@chorus/store-postgres";
import { TEST_SERVER } from "@chorus/store-postgres/testing";

/** One gateway instance of a test cluster: its own store (pool, leases) and its own channel on the fake platform. */
export interface ClusterInstance<C extends Channel> {
  readonly name: string;
  readonly store: PostgresSessionStore;
  readonly channel: C;
  readonly running: ChannelGateway;
  /** The store's warnings (leases not renewed, ingress that did not start …), for a failing test to show. */
  readonly warnings: readonly string[];
  /** Stops the gateway (leases released) and closes the store. Idempotent. */
  stop(): Promise<void>;
}

/**
 * Starts a gateway in cluster mode on database `database` (through `port`, e.g. a NetworkGate in front of
 * PostgreSQL, to cut it off later) over `channel`, answering every message with "ok".
 */
export async function startClusterInstance<C extends Channel>(options: {
  name: string;
  database: string;
  port?: number;
  channel: C;
  channelConfig: Record<string, unknown>;
  leaseMs?: number;
}): Promise<ClusterInstance<C>> {
  const warnings: string[] = [];
  const store = await PostgresSessionStore.open({
    url: `postgres://${TEST_SERVER.user}@127.0.0.1:${options.port ?? TEST_SERVER.port}/${options.database}`,
    connectTimeoutMs: 1000,
    queryTimeoutMs: 2000,
    cluster: { instanceId: options.name, leaseMs: options.leaseMs ?? 1500, sweepMs: 1000 },
    onWarning: (message) => warnings.push(message),
  });
  const running = await startChannelGateway({
    channels: [options.channel],
    config: { channels: [options.channelConfig as never] },
    script: () => "ok",
    gateway: { store, replyMode: "block", outbox: { pollMs: 200 } },
  });
  let stopped = false;
  return {
    name: options.name,
    store,
    channel: options.channel,
    running,
    warnings,
    async stop() {
      if (stopped) return;
      stopped = true;
      await running.stop();
      await store.close();
    },
  };
}
