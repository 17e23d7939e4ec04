import { describeError, localIngress } from "@chorus/gateway";
import type { Logger } from "pino";
import { WebchatChannel } from "../webchat/webchat-channel.js";
import type { ChannelHooks, ChannelSpec } from "./channel-factory.js";
import { ManagedChannel } from "./managed-channel.js";

interface LiveChannel {
  readonly spec: ChannelSpec;
  readonly channel: ManagedChannel;
}

/**
 * The channel accounts that are connected, kept across Gateway rebuilds, plus each one's own platform user id
 * (the Gateway ignores the bot's own messages by it).
 * Contract: `sync` never rejects for a channel that fails to start: it is logged, left out and remembered as
 * `waiting`, and `openWaiting` tries it again.
 */
export class LiveChannels {
  /** `<kind>/<accountId>` → the bot's own user id there; handed to the Gateway, filled in as channels start. */
  readonly selfIds: Record<string, string> = {};
  readonly #live = new Map<string, LiveChannel>();
  /** Wanted channels that could not start yet. */
  readonly #waiting = new Map<string, ChannelSpec>();
  readonly #hooks: ChannelHooks;
  readonly #logger: Logger;

  constructor(hooks: ChannelHooks, logger: Logger) {
    this.#hooks = hooks;
    this.#logger = logger;
  }

  get size(): number {
    return this.#live.size;
  }

  keys(): string[] {
    return [...this.#live.keys()];
  }

  /** The wanted channels that could not start (yet). */
  waitingKeys(): string[] {
    return [...this.#waiting.keys()];
  }

  get(key: string): ManagedChannel | undefined {
    return this.#live.get(key)?.channel;
  }

  all(): ManagedChannel[] {
    return [...this.#live.values()].map((live) => live.channel);
  }

  webchats(): WebchatChannel[] {
    return this.all().flatMap((channel) => (channel.inner instanceof WebchatChannel ? [channel.inner] : []));
  }

  /** Starts channels the specs add, closes those they drop, restarts those whose connection settings changed. */
  async sync(specs: readonly ChannelSpec[]): Promise<void> {
    const wanted = new Map(specs.map((spec) => [spec.key, spec]));
    for (const [key, live] of this.#live) {
      const spec = wanted.get(key);
      if (spec !== undefined && spec.fingerprint === live.spec.fingerprint) continue;
      this.#live.delete(key);
      delete this.selfIds[key];
      await live.channel.close().catch(() => {});
      this.#logger.info(
        { channel: key },
        spec === undefined ? "channel removed" : "channel settings changed: restarting it",
      );
    }
    for (const key of this.#waiting.keys()) if (!wanted.has(key)) this.#waiting.delete(key);
    for (const [key, spec] of wanted) {
      if (this.#live.has(key)) continue;
      await this.#open(key, spec);
    }
  }

  /** Tries again to start the channels that could not start. Contract: returns the keys that started now. */
  async openWaiting(): Promise<string[]> {
    const started: string[] = [];
    for (const [key, spec] of [...this.#waiting]) {
      if (await this.#open(key, spec)) started.push(key);
    }
    return started;
  }

  async #open(key: string, spec: ChannelSpec): Promise<boolean> {
    const channel = new ManagedChannel(spec.create(this.#hooks));
    try {
      // In a cluster the store's ingress leases decide where a long poll or a Discord shard runs.
      await channel.open({ ingress: this.#hooks.ingress() ?? localIngress });
    } catch (error) {
      this.#logger.error({ channel: key, error: describeError(error) }, "channel failed to start");
      await channel.close().catch(() => {});
      this.#waiting.set(key, spec);
      return false;
    }
    this.#waiting.delete(key);
    this.#live.set(key, { spec, channel });
    const inner = channel.inner as { botUserId?: string; botId?: number };
    const selfId = inner.botUserId ?? (inner.botId === undefined ? undefined : String(inner.botId));
    if (selfId !== undefined) this.selfIds[key] = selfId;
    this.#logger.info({ channel: key }, "channel started");
    return true;
  }

  /** Detaches every channel from its Gateway; new messages wait in the channels. */
  async detachAll(): Promise<void> {
    for (const { channel } of this.#live.values()) await channel.stop();
  }

  /** The bot is shutting down: messages that arrive once the Gateway let go are refused where the platform redelivers. */
  closing(): void {
    for (const { channel } of this.#live.values()) channel.closing();
  }

  /** Closes every platform connection. */
  async closeAll(): Promise<void> {
    for (const [key, { channel }] of this.#live) {
      await channel
        .close()
        .catch((error: unknown) =>
          this.#logger.warn({ channel: key, error: describeError(error) }, "channel did not close cleanly"),
        );
    }
    this.#live.clear();
    this.#waiting.clear();
  }
}
