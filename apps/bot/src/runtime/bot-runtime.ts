import { mkdir } from "node:fs/promises";
import { resolve } from "node:path";
import type { StreamFn } from "@chorus/core";
import {
  type ChannelPolicyEntryInput,
  describeError,
  Gateway,
  GatewayEventBus,
  type SessionStore,
} from "@chorus/gateway";
import type { Logger } from "pino";
import type { BotConfig } from "../config/bot-config-schema.js";
import { gatewayConfigOf } from "../config/gateway-config-of.js";
import { DEMO_MODEL_REF } from "../demo/demo-model.js";
import { ensureDemoWorkspace } from "../demo/demo-workspace.js";
import { buildBotStreamFn } from "../models/bot-stream-fn.js";
import { buildModelRegistry } from "../models/model-reference.js";
import { WebchatChannel } from "../webchat/webchat-channel.js";
import { agentSetupsOf } from "./agent-setup.js";
import { type ChannelSpec, channelSpecsOf } from "./channel-factory.js";
import { ManagedChannel } from "./managed-channel.js";
import { botModelCatalog } from "./model-catalog.js";
import { openStore } from "./open-store.js";
import { logRunEvents } from "./run-event-log.js";
import { renderBanner } from "./startup-banner.js";

/** Options of the running bot. */
export interface BotRuntimeOptions {
  readonly config: BotConfig;
  /** The config file, or "(defaults)". */
  readonly source: string;
  readonly logger: Logger;
  /** Base for relative paths in the config; default process.cwd(). */
  readonly cwd?: string;
  /** Shown in the banner when the model was picked from the environment. */
  readonly modelExplanation?: string;
  /** Paces the demo model's stream (default 15 ms per word; 0 in tests). */
  readonly demoTokenDelayMs?: number;
  /** Passed to the Gateway (tests shorten the outbox poll). */
  readonly outboxPollMs?: number;
  /** Channels besides the config's (the terminal of `chorus chat`). */
  readonly extraChannels?: readonly ChannelSpec[];
  /** Policy entries for those channels. */
  readonly extraPolicies?: readonly ChannelPolicyEntryInput[];
}

/** A reload waits this long for running turns (the Gateway stops a turn after 10 min anyway). */
const RELOAD_WAIT_MS = 15 * 60 * 1000;

interface LiveChannel {
  readonly spec: ChannelSpec;
  readonly channel: ManagedChannel;
}

/**
 * The running bot: store, channels and a Gateway built from one configuration, with graceful shutdown and config
 * reload. A reload is applied between turns: new messages wait while running turns finish, then a new Gateway
 * takes over; channels whose connection settings did not change stay connected.
 * Contract: `start` rejects only when nothing can run (store unusable, every channel failed); a channel that fails
 * to start is logged and left out.
 */
export class BotRuntime {
  readonly #options: BotRuntimeOptions;
  readonly #logger: Logger;
  readonly #cwd: string;
  readonly #events: GatewayEventBus;
  readonly #channels = new Map<string, LiveChannel>();
  readonly #selfIds: Record<string, string> = {};
  readonly #webchatAdmins = new Map<string, Set<string>>();
  #config: BotConfig;
  #store: SessionStore | undefined;
  #storeDescription = "";
  #gateway: Gateway | undefined;
  #ready = false;
  #transition: Promise<void> = Promise.resolve();
  #stopped = false;

  constructor(options: BotRuntimeOptions) {
    this.#options = options;
    this.#config = options.config;
    this.#logger = options.logger;
    this.#cwd = options.cwd ?? process.cwd();
    this.#events = new GatewayEventBus({
      onSubscriberError: (error) => this.#logger.warn({ error: describeError(error) }, "event subscriber failed"),
    });
    this.#events.subscribe(
      (delivery) => {
        if (delivery.type === "dropped") return;
        for (const { channel } of this.#channels.values()) {
          if (channel.inner instanceof WebchatChannel) channel.inner.showActivity(delivery);
        }
      },
      { bufferSize: 1024 },
    );
    logRunEvents(this.#events, this.#logger);
  }

  /** The configuration in force. */
  get config(): BotConfig {
    return this.#config;
  }

  /** The running Gateway (undefined before start and after shutdown). */
  get gateway(): Gateway | undefined {
    return this.#gateway;
  }

  /** The channel accounts that are connected, by `<kind>/<accountId>`. */
  get channels(): ReadonlyMap<string, ManagedChannel> {
    return new Map([...this.#channels].map(([key, live]) => [key, live.channel]));
  }

  /** The URL of the first WebChat page, once started. */
  get webchatUrl(): string | undefined {
    for (const { channel } of this.#channels.values()) {
      if (channel.inner instanceof WebchatChannel && channel.inner.url) return channel.inner.url;
    }
    return undefined;
  }

  async start(): Promise<void> {
    const config = this.#config;
    const dataDir = resolve(this.#cwd, config.dataDir);
    await mkdir(dataDir, { recursive: true });
    const opened = openStore(config, this.#cwd);
    this.#store = opened.store;
    this.#storeDescription = opened.description;
    await this.#syncChannels(config);
    if (this.#channels.size === 0 && channelSpecsOf(config).length + (this.#options.extraChannels?.length ?? 0) > 0) {
      await this.#store.close();
      throw new Error("no channel could start (see the errors above)");
    }
    this.#gateway = await this.#startGateway(config);
    this.#ready = true;
    this.#logger.info(
      {
        channels: [...this.#channels.keys()],
        agents: config.agents.map((agent) => agent.id),
        store: this.#storeDescription,
      },
      "chorus started",
    );
  }

  /** The startup banner for this runtime's current state. */
  banner(): string {
    return renderBanner({
      configSource: this.#options.source,
      channels: channelSpecsOf(this.#config).map((spec) => {
        const live = this.#channels.get(spec.key);
        const inner = live?.channel.inner;
        const status =
          live === undefined ? "failed to start (see the log)" : inner instanceof WebchatChannel ? `${inner.url ?? ""}` : "connected";
        return { key: spec.key, status };
      }),
      agents: this.#config.agents.map((agent) => ({ id: agent.id, model: agent.model })),
      store: this.#storeDescription,
      ...(this.#options.modelExplanation === undefined ? {} : { modelExplanation: this.#options.modelExplanation }),
    });
  }

  /** What /readyz reports. */
  readiness(): { ready: boolean; detail: Record<string, unknown> } {
    return {
      ready: this.#ready && !this.#stopped,
      detail: { channels: [...this.#channels.keys()], agents: this.#config.agents.map((agent) => agent.id) },
    };
  }

  /**
   * Applies a new, already validated configuration between turns: new messages are held while running turns
   * finish, then a new Gateway takes over; channels are started, stopped or restarted as their settings changed.
   * Contract: on failure the previous configuration is put back and the error rethrown; never runs mid-turn.
   */
  reload(next: BotConfig): Promise<void> {
    const run = this.#transition.then(() => this.#reload(next));
    this.#transition = run.catch(() => {});
    return run;
  }

  /**
   * Graceful shutdown: stop taking messages, let running turns finish up to `shutdownGraceMs`, then abort them
   * (their state is persisted), close the channels and the store.
   * Contract: idempotent; resolves when everything is closed.
   */
  shutdown(): Promise<void> {
    if (this.#stopped) return this.#transition;
    this.#stopped = true;
    const run = this.#transition.then(() => this.#shutdown());
    this.#transition = run.catch(() => {});
    return run;
  }

  async #shutdown(): Promise<void> {
    this.#ready = false;
    this.#logger.info({ graceMs: this.#config.shutdownGraceMs }, "shutting down: finishing running turns");
    for (const { channel } of this.#channels.values()) {
      if (channel.inner instanceof WebchatChannel) channel.inner.stopIntake();
    }
    const gateway = this.#gateway;
    this.#gateway = undefined;
    if (gateway !== undefined) await gateway.stop(this.#config.shutdownGraceMs);
    for (const [key, { channel }] of this.#channels) {
      await channel.close().catch((error: unknown) => this.#logger.warn({ channel: key, error: describeError(error) }, "channel did not close cleanly"));
    }
    this.#channels.clear();
    await this.#store?.close();
    this.#logger.info("stopped");
  }

  async #reload(next: BotConfig): Promise<void> {
    if (this.#stopped) return;
    const previous = this.#config;
    this.#logger.info("reloading the configuration: waiting for running turns to finish");
    // Hold new messages in the channels while the old Gateway finishes its turns (none is cut short).
    for (const { channel } of this.#channels.values()) await channel.stop();
    const old = this.#gateway;
    this.#gateway = undefined;
    if (old !== undefined) await old.stop(RELOAD_WAIT_MS);
    try {
      await this.#syncChannels(next);
      this.#gateway = await this.#startGateway(next);
      this.#config = next;
      this.#logger.info(
        { channels: [...this.#channels.keys()], agents: next.agents.map((agent) => agent.id) },
        "configuration reloaded",
      );
    } catch (error) {
      this.#logger.error({ error: describeError(error) }, "could not apply the new configuration; keeping the old one");
      await this.#syncChannels(previous);
      this.#gateway = await this.#startGateway(previous);
      throw error;
    }
  }

  /** Starts channels the config adds, closes those it removes, restarts those whose settings changed. */
  async #syncChannels(config: BotConfig): Promise<void> {
    const specs = [...channelSpecsOf(config), ...(this.#options.extraChannels ?? [])];
    const wanted = new Map(specs.map((spec) => [spec.key, spec]));
    for (const [key, live] of this.#channels) {
      const spec = wanted.get(key);
      if (spec !== undefined && spec.fingerprint === live.spec.fingerprint) continue;
      this.#channels.delete(key);
      await live.channel.close().catch(() => {});
      this.#logger.info({ channel: key }, spec === undefined ? "channel removed" : "channel settings changed: restarting it");
    }
    for (const [key, spec] of wanted) {
      if (this.#channels.has(key)) continue;
      const channel = new ManagedChannel(
        spec.create({
          onError: (channelKey, error) => this.#logger.warn({ channel: channelKey, error: describeError(error) }, "channel error"),
          onWebchatAdmin: (accountId, senderId) => this.#addWebchatAdmin(accountId, senderId),
          readiness: () => this.readiness(),
        }),
      );
      try {
        await channel.open();
      } catch (error) {
        this.#logger.error({ channel: key, error: describeError(error) }, "channel failed to start");
        await channel.close().catch(() => {});
        continue;
      }
      this.#channels.set(key, { spec, channel });
      this.#recordSelfId(key, channel);
      this.#logger.info({ channel: key }, "channel started");
    }
  }

  async #startGateway(config: BotConfig): Promise<Gateway> {
    const store = this.#store;
    if (store === undefined) throw new Error("the store is not open");
    const workspace = resolve(this.#cwd, config.dataDir, "workspace");
    await mkdir(workspace, { recursive: true });
    if (config.agents.some((agent) => agent.model === DEMO_MODEL_REF)) await ensureDemoWorkspace(workspace);
    const registry = buildModelRegistry(config);
    const streamFn: StreamFn = buildBotStreamFn(config, definedDelay(this.#options.demoTokenDelayMs));
    const gatewayConfig = gatewayConfigOf(config);
    const gateway = new Gateway({
      config: { ...gatewayConfig, channels: [...(gatewayConfig.channels ?? []), ...(this.#options.extraPolicies ?? [])] },
      store,
      channels: [...this.#channels.values()].map((live) => live.channel),
      streamFn,
      models: botModelCatalog(registry, config),
      selfIds: this.#selfIds,
      agents: agentSetupsOf(config, workspace),
      events: this.#events,
      logger: this.#logger,
      ...(this.#options.outboxPollMs === undefined ? {} : { outbox: { pollMs: this.#options.outboxPollMs } }),
    });
    this.#applyWebchatAdmins(gateway);
    await gateway.start();
    return gateway;
  }

  #recordSelfId(key: string, channel: ManagedChannel): void {
    const inner = channel.inner as { botUserId?: string; botId?: number };
    const id = inner.botUserId ?? (inner.botId === undefined ? undefined : String(inner.botId));
    if (id !== undefined) this.#selfIds[key] = id;
  }

  #addWebchatAdmin(accountId: string, senderId: string): void {
    const admins = this.#webchatAdmins.get(accountId) ?? new Set<string>();
    admins.add(senderId);
    this.#webchatAdmins.set(accountId, admins);
    if (this.#gateway !== undefined) this.#applyWebchatAdmins(this.#gateway);
  }

  /**
   * Local browsers are admins: their sender ids join the WebChat account's admin list in the Gateway's config
   * (the Gateway resolves the policy per message, so this takes effect at once).
   */
  #applyWebchatAdmins(gateway: Gateway): void {
    for (const [accountId, ids] of this.#webchatAdmins) {
      const entry = gateway.config.channels.find((item) => item.channel === "webchat" && item.accountId === accountId);
      if (entry?.admins === undefined) continue;
      for (const id of ids) if (!entry.admins.includes(id)) entry.admins.push(id);
    }
  }
}

function definedDelay(ms: number | undefined): { tokenDelayMs?: number } {
  return ms === undefined ? {} : { tokenDelayMs: ms };
}
