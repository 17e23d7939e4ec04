import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Channel } from "@chorus/gateway";

interface GatewayLike {
  start(): Promise<void>;
  stop(deadlineMs?: number): Promise<void>;
}

interface StoreLike {
  close(): Promise<void>;
}

interface ModelLike {
  readonly id: string;
}

/** The runtime pieces the Gateway rows need, typed locally so the bench builds before they are exported. */
export interface GatewayPieces {
  readonly Gateway: new (options: Record<string, unknown>) => GatewayLike;
  readonly SqliteSessionStore: { open(options: { path: string }): StoreLike };
  /** The script answers a text, or a scripted reply (e.g. `{ blocks: [{ type: "text", text, delayMs }] }`). */
  readonly scriptedStreamFn: (script: (context: { messages: readonly unknown[] }) => string | object) => unknown;
  readonly fakeModel: () => ModelLike;
}

/**
 * Loads the Gateway from @chorus/gateway's dist, the SQLite store from @chorus/store-sqlite's and the scripted model from @chorus/core/testing.
 * Contract: resolves with the reason instead of throwing when either is missing.
 */
export async function loadGatewayPieces(): Promise<GatewayPieces | { unavailable: string }> {
  try {
    const gateway = (await import("@chorus/gateway")) as unknown as Partial<GatewayPieces>;
    const sqlite = (await import("@chorus/store-sqlite")) as unknown as Partial<GatewayPieces>;
    const testing = (await import("@chorus/core/testing")) as unknown as Partial<GatewayPieces>;
    if (typeof gateway.Gateway !== "function" || sqlite.SqliteSessionStore === undefined) {
      return { unavailable: "n/a (@chorus/gateway does not export the Gateway)" };
    }
    if (typeof testing.scriptedStreamFn !== "function" || typeof testing.fakeModel !== "function") {
      return { unavailable: "n/a (@chorus/core/testing lacks the scripted model)" };
    }
    return {
      Gateway: gateway.Gateway,
      SqliteSessionStore: sqlite.SqliteSessionStore,
      scriptedStreamFn: testing.scriptedStreamFn,
      fakeModel: testing.fakeModel,
    };
  } catch (error) {
    const reason = error instanceof Error ? (error.message.split("\n")[0] ?? "") : String(error);
    return { unavailable: `n/a (Gateway not loadable: ${reason})` };
  }
}

/**
 * An echo bot as the full Gateway: one agent on a zero-latency scripted model that answers `echo: <key>`,
 * a SQLite store in a temporary directory, the channel's group chats answered without a mention, one turn per
 * message (queue mode followup, no cap on waiting messages), no session rate cap, block replies.
 * Contract: `stop` stops the gateway, closes the store and removes its directory.
 */
export async function startGatewayEcho(
  pieces: GatewayPieces,
  channel: Channel,
  groupChatIds: readonly string[],
): Promise<{ stop(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "chorus-bench-gateway-"));
  const store = pieces.SqliteSessionStore.open({ path: join(dir, "sessions.db") });
  const model = pieces.fakeModel();
  const streamFn = pieces.scriptedStreamFn((context) => {
    const last = JSON.stringify(context.messages.at(-1) ?? "");
    return `echo: ${/r\d+m\d+/.exec(last)?.[0] ?? "?"}`;
  });
  const gateway = new pieces.Gateway({
    config: {
      agents: [{ id: "echo", model: model.id }],
      channels: [
        {
          channel: channel.id,
          dmPolicy: "open",
          groupPolicy: "open",
          queueMode: "followup",
          groups: Object.fromEntries(groupChatIds.map((id) => [id, { requireMention: false }])),
        },
      ],
    },
    store,
    channels: [channel],
    streamFn,
    models: { find: (id: string) => (id === model.id ? model : undefined), list: () => [model] },
    replyMode: "block",
    rateCap: false,
    titles: false,
    // The bench injects as fast as the fake delivers (up to 60 messages per chat in a round) and wants every one
    // answered; the default cap of 20 waiting per session would drop some once inbound outpaces the turns.
    maxQueuedPerSession: 10_000,
  });
  await gateway.start();
  return {
    stop: async () => {
      await gateway.stop(0);
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
