import { once } from "node:events";
import type { ChannelAccountOptions } from "@chorus/channel";
import type { Client, GatewayDispatchPayload, WebSocketOptions } from "discord.js";
import { toDiscordChannelError } from "./discord-errors.js";
import { checkIdentifyBudget, SHARD_RETRY_MS } from "./identify-budget-check.js";
import { ReplayFirstInbound } from "./replay-first-inbound.js";
import { shardIdentifyThrottler } from "./shard-identify-throttler.js";
import type { ShardParts } from "./shard-parts.js";
import { type RawGatewayPacket, ShardSessionRecorder } from "./shard-session-recorder.js";
import { type GatewayDispatch, replayShardSession, shardSessionOf } from "./shard-session-replay.js";

/** A close code that does not end the Discord session (1000 and 1001 do): 4200, what @discordjs/ws uses to resume. */
const RESUMABLE_CLOSE_CODE = 4200;

const INTENT_BITS = { Guilds: 1 << 0, GuildMessages: 1 << 9, DirectMessages: 1 << 12, MessageContent: 1 << 15 };

/** The @discordjs/ws manager a discord.js Client runs its gateway socket on (what `ws.buildStrategy` is given). */
type ShardSockets = Parameters<NonNullable<WebSocketOptions["buildStrategy"]>>[0];

/** A shard connected here: its discord.js Client and, once it connects, the @discordjs/ws manager under it. */
interface ShardConnection {
  readonly client: Client;
  sockets: ShardSockets | undefined;
}

/** A held shard waiting for the daily IDENTIFY budget: the timer that asks again. */
interface BudgetWait {
  timer: NodeJS.Timeout | undefined;
}

/** What the shards read from the channel's options. */
export type DiscordShardsOptions = Pick<ChannelAccountOptions, "onError"> & { readonly token: string };

/**
 * The gateway shards this instance holds: one discord.js Client (one WebSocket) per connected shard, and a timer per
 * held shard that waits for the daily IDENTIFY budget.
 * Contract: `start` is called when this instance comes to hold a shard, `disconnect` when it no longer does; a shard
 * taken over from a dead holder is IDENTIFIED and the holder's saved session RESUMEd for the messages it missed,
 * handed on before the new session's live ones.
 */
export class DiscordShards {
  readonly #options: DiscordShardsOptions;
  readonly #connections = new Map<number, ShardConnection>();
  /** Shards held here but not connected: the daily IDENTIFY budget is spent (down to its reserve). */
  readonly #budgetWaits = new Map<number, BudgetWait>();

  constructor(options: DiscordShardsOptions) {
    this.#options = options;
  }

  /** The shards connected here now, sorted. */
  get connected(): number[] {
    return [...this.#connections.keys()].sort((a, b) => a - b);
  }

  /**
   * Connects a shard this instance now holds, when the bot's daily IDENTIFY budget allows (`identifyBudgetVerdict`);
   * otherwise warns and asks again after Discord's `reset_after`, keeping the lease (every instance shares the budget,
   * so another could not do better) while the other shards run on.
   */
  start(discord: typeof import("discord.js"), parts: ShardParts): Promise<void> {
    return this.#start(discord, parts);
  }

  /** `start`, and again from `#askBudgetAgain` with its `wait` (to tell whether the shard was given up meanwhile). */
  async #start(discord: typeof import("discord.js"), parts: ShardParts, wait?: BudgetWait): Promise<void> {
    // The bucket's slot first, then the budget: no other IDENTIFY of the bucket comes between the check and its own.
    await parts.pacer.waitForIdentify(parts.shard);
    const verdict = await checkIdentifyBudget(parts, this.#options);
    // Given up meanwhile: the lease lost, or the channel stopped, while the budget was asked again.
    if (wait !== undefined && this.#budgetWaits.get(parts.shard) !== wait) return;
    this.#budgetWaits.delete(parts.shard);
    if (verdict.kind === "identify") await this.#connect(discord, parts);
    else this.#askBudgetAgain(discord, parts, verdict.retryAfterMs);
  }

  /** Closes a shard's connection, or stops its wait for the budget; resumable, for the shard's next holder. */
  async disconnect(shard: number): Promise<void> {
    clearTimeout(this.#budgetWaits.get(shard)?.timer);
    this.#budgetWaits.delete(shard);
    const connection = this.#connections.get(shard);
    this.#connections.delete(shard);
    if (connection === undefined) return;
    // Closed with a code that keeps the session resumable (discord.js's own destroy sends 1000, which ends it): the next
    // holder of the shard RESUMEs it for the events sent in between.
    await Promise.resolve(
      connection.sockets?.destroy({ code: RESUMABLE_CLOSE_CODE, reason: "shard handed over" }),
    ).catch(() => {});
    await connection.client.destroy();
  }

  /** Stops every wait for the budget, then disconnects every shard still connected. */
  async stopAll(): Promise<void> {
    for (const wait of this.#budgetWaits.values()) clearTimeout(wait.timer);
    this.#budgetWaits.clear();
    await Promise.all([...this.#connections.keys()].map((shard) => this.disconnect(shard)));
  }

  #askBudgetAgain(discord: typeof import("discord.js"), parts: ShardParts, afterMs: number): void {
    const wait: BudgetWait = { timer: undefined };
    wait.timer = setTimeout(() => {
      this.#start(discord, parts, wait).catch((error: unknown) => {
        this.#options.onError?.(toDiscordChannelError(error, `shard ${parts.shard} connect`));
        if (this.#budgetWaits.get(parts.shard) === wait) this.#askBudgetAgain(discord, parts, SHARD_RETRY_MS);
      });
    }, afterMs);
    this.#budgetWaits.set(parts.shard, wait);
  }

  /** Opens the gateway WebSocket of one shard (IDENTIFY, paced) and saves its session with the lease as it goes. */
  async #connect(discord: typeof import("discord.js"), parts: ShardParts): Promise<void> {
    const client = new discord.Client({
      intents: Object.values(INTENT_BITS).reduce((all, bit) => all | bit, 0),
      // DMs arrive on channels discord.js has not cached; without Partials.Channel they are dropped silently.
      partials: [discord.Partials.Channel],
      rest: parts.rest,
      shards: [parts.shard],
      shardCount: parts.shardCount,
      ws: {
        buildIdentifyThrottler: () => shardIdentifyThrottler(parts, this.#options),
        // discord.js's default strategy, built here to keep hold of the @discordjs/ws manager through public API: its
        // `destroy` takes a close code (discord.js's own sends 1000) and its Dispatch event is what discord.js reads.
        buildStrategy: (manager) => {
          connection.sockets = manager;
          return new discord.SimpleShardingStrategy(manager);
        },
      },
    });
    const connection: ShardConnection = { client, sockets: undefined };
    this.#connections.set(parts.shard, connection);
    // Taken over from an instance that died holding the shard: its session is RESUMEd below for what it missed, and
    // this client's live messages wait until those are handed on (a chat's older messages first).
    const previous = shardSessionOf(parts.lease.state);
    const inbound = new ReplayFirstInbound(previous !== undefined);
    const recorder = new ShardSessionRecorder(parts.lease, inbound);
    parts.listen(client, inbound, (messageId) => recorder.handedOn(messageId));
    client.on(discord.Events.Raw, (packet: RawGatewayPacket) => recorder.observe(packet));
    try {
      const ready = once(client, discord.Events.ClientReady);
      await client.login(this.#options.token);
      await ready;
    } catch (error) {
      await this.disconnect(parts.shard);
      throw error;
    }
    // What Discord kept for the previous holder's session (sent after its last read) is fetched with a RESUME of that
    // session and handed to this client as if it had come on its own socket, then the live messages held meanwhile.
    // What the previous holder did read comes again too, and is stored once (the message id is the event id).
    if (previous === undefined) return;
    let missed: readonly GatewayDispatch[] = [];
    try {
      missed = await replayShardSession(previous, this.#options.token);
    } finally {
      // Emitted as the Dispatch event of the @discordjs/ws manager, as if it had come on this client's socket.
      // discord.js's listener and its MessageCreate are synchronous: the replayed messages pass before the held ones.
      // (Typed by hand: @discordjs/ws's `WebSocketShardEvents.Dispatch` is "dispatch", but discord.js's own, older
      // `WebSocketShardEvents` hides that enum's name.)
      const sockets = connection.sockets as unknown as
        | { emit(event: "dispatch", payload: { data: GatewayDispatchPayload; shardId: number }): boolean }
        | undefined;
      inbound.release(() =>
        recorder.whileReplaying(() => {
          for (const packet of missed) {
            if (packet.t !== "MESSAGE_CREATE") continue;
            sockets?.emit("dispatch", { data: packet as unknown as GatewayDispatchPayload, shardId: parts.shard });
          }
        }),
      );
      recorder.save();
    }
  }
}
