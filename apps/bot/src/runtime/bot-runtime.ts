import { resolve } from "node:path";
import type { StreamFn } from "@chorus/core";
import {
  type ChannelPolicyEntryInput,
  describeError,
  type Gateway,
  GatewayEventBus,
  type GatewayTelemetryOptions,
  loadGatewayConfig,
  type SessionStore,
  StoreReachability,
} from "@chorus/gateway";
import type { Logger } from "pino";
import type { BotConfig } from "../config/bot-config-schema.js";
import { gatewayConfigOf } from "../config/gateway-config-of.js";
import type { MetricsHandler } from "../telemetry/bot-telemetry.js";
import { WebchatChannel } from "../webchat/webchat-channel.js";
import { clusterWebchatKey, WEBCHAT_KEY_FILE } from "../webchat/webchat-key.js";
import { buildGateway } from "./build-gateway.js";
import { type ChannelSpec, channelSpecsOf } from "./channel-factory.js";
import { LiveChannels } from "./live-channels.js";
import type { ManagedChannel } from "./managed-channel.js";
import { type OpenedMemory, openMemory } from "./open-memory.js";
import { openStore } from "./open-store.js";
import { makeDataDirPrivate } from "./private-data-dir.js";
import { logRunEvents } from "./run-event-log.js";
import { renderBanner } from "./startup-banner.js";
import { WebchatAdmins } from "./webchat-admins.js";
import { readWebchatHistory } from "./webchat-stored-history.js";

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
  /** Wraps the StreamFn every model call goes through (tests hold a call to observe a run in flight). */
  readonly wrapStreamFn?: (streamFn: StreamFn) => StreamFn;
  /** Channels besides the config's (the terminal of `chorus chat`). */
  readonly extraChannels?: readonly ChannelSpec[];
  /** Policy entries for those channels. */
  readonly extraPolicies?: readonly ChannelPolicyEntryInput[];
  /** First wait before a channel that could not start is tried again; doubled per try, at most 5 min. Default 5 000 ms. */
  readonly channelRetryMs?: number;
  /** Serves GET /metrics on the WebChat server (the bot's telemetry, when Prometheus output is on). */
  readonly metrics?: MetricsHandler;
  /** Spans' session keys and content capture, passed to each Gateway. */
  readonly telemetry?: GatewayTelemetryOptions;
}

/** The longest wait between two tries of a channel that could not start. */
const MAX_CHANNEL_RETRY_MS = 5 * 60 * 1000;

/** A reload waits this long for running turns (the Gateway stops a turn after 10 min anyway). */
const RELOAD_WAIT_MS = 15 * 60 * 1000;

/**
 * The running bot: store, channels and a Gateway built from one configuration, with graceful shutdown and config
 * reload. A reload is applied between turns: new messages wait while running turns finish, then a new Gateway
 * takes over; channels whose connection settings did not change stay connected.
 * Contract: `start` rejects only when nothing can run (store unusable, every channel failed); a channel that fails
 * to start (its platform unreachable at boot, say) is logged, left out, and tried again in the background — 5 s, 10 s,
 * 20 s … at most 5 min apart — until it starts; then a new Gateway takes it on, between turns, as on a reload.
 */
export class BotRuntime {
  readonly #options: BotRuntimeOptions;
  readonly #logger: Logger;
  readonly #cwd: string;
  readonly #events: GatewayEventBus;
  readonly #channels: LiveChannels;
  readonly #admins = new WebchatAdmins();
  #config: BotConfig;
  #store: SessionStore | undefined;
  /** Whether the store answers: `/readyz` says not ready while it does not (a balancer sends messages elsewhere). */
  #storeReachability: StoreReachability | undefined;
  #storeDescription = "";
  #memory: OpenedMemory | undefined;
  #gateway: Gateway | undefined;
  #ready = false;
  #transition: Promise<void> = Promise.resolve();
  #stopped = false;
  #channelRetry: ReturnType<typeof setTimeout> | undefined;
  #channelRetries = 0;

  constructor(options: BotRuntimeOptions) {
    this.#options = options;
    this.#config = options.config;
    this.#logger = options.logger;
    this.#cwd = options.cwd ?? process.cwd();
    this.#events = new GatewayEventBus({
      onSubscriberError: (error) => this.#logger.warn({ error: describeError(error) }, "event subscriber failed"),
    });
    this.#channels = new LiveChannels(
      {
        onError: (key, error) => this.#logger.warn({ channel: key, error: describeError(error) }, "channel error"),
        onWebchatAdminMessage: (accountId, eventId) => this.#admins.markMessage(accountId, eventId),
        webchatKeyFile: () => resolve(this.#cwd, this.#config.dataDir, WEBCHAT_KEY_FILE),
        webchatHistory: async (accountId, publicId) => {
          const store = this.#store;
          if (store === undefined) return [];
          // While the Gateway starts (or between two on a reload) the routing comes from the config in force: a page
          // opened then gets its stored conversation too, not an empty one it would keep.
          const routing = this.#gateway?.config ?? loadGatewayConfig(gatewayConfigOf(this.#config));
          return readWebchatHistory(store, routing, accountId, publicId);
        },
        instanceBroadcast: () => this.#store?.ownership?.broadcast,
        webchatSharedKey: () => {
          const agreeOn = this.#store?.ownership?.agreeOn?.bind(this.#store.ownership);
          return agreeOn === undefined ? undefined : (own) => clusterWebchatKey(own, agreeOn);
        },
        readiness: () => this.readiness(),
        ingress: () => this.#store?.ownership?.ingress,
        ...(options.metrics === undefined ? {} : { metrics: options.metrics }),
      },
      this.#logger,
    );
    this.#events.subscribe(
      (delivery) => {
        if (delivery.type === "dropped") return;
        for (const webchat of this.#channels.webchats()) webchat.showActivity(delivery);
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
    return new Map(this.#channels.keys().map((key) => [key, this.#channels.get(key) as ManagedChannel]));
  }

  /** The URL of the first WebChat page, once started. */
  get webchatUrl(): string | undefined {
    return this.#channels.webchats().find((webchat) => webchat.url !== undefined)?.url;
  }

  async start(): Promise<void> {
    const config = this.#config;
    const dataDir = resolve(this.#cwd, config.dataDir);
    const tightened = await makeDataDirPrivate(dataDir);
    if (tightened.count > 0) {
      this.#logger.warn(
        { dataDir, count: tightened.count, examples: tightened.examples },
        `made the data dir private: ${tightened.count} files and folders other users could read are now owner-only (folders 0700, files 0600)`,
      );
    }
    const opened = await openStore(config, this.#cwd, (message) => this.#logger.warn({}, message));
    this.#store = opened.store;
    this.#storeDescription = opened.description;
    this.#storeReachability = new StoreReachability(opened.store, {
      onChange: (reachable) =>
        reachable
          ? this.#logger.info({}, "the store answers again: ready")
          : this.#logger.warn({}, "the store does not answer: not ready until it does"),
    });
    this.#storeReachability.start();
    this.#memory = await openMemory(config, this.#cwd, opened.store);
    const specs = this.#specsOf(config);
    await this.#channels.sync(specs);
    if (this.#channels.size === 0 && specs.length > 0) {
      await this.#memory?.close();
      this.#storeReachability.stop();
      await this.#store.close();
      throw new Error("no channel could start (see the errors above)");
    }
    this.#gateway = await this.#startGateway(config);
    this.#ready = true;
    this.#logger.info(
      {
        channels: this.#channels.keys(),
        agents: config.agents.map((agent) => agent.id),
        store: this.#storeDescription,
        ...(this.#memory === undefined ? {} : { memory: this.#memory.description }),
      },
      "chorus started",
    );
    this.#scheduleChannelRetry();
  }

  /** The startup banner for this runtime's current state. */
  banner(): string {
    return renderBanner({
      configSource: this.#options.source,
      channels: channelSpecsOf(this.#config).map((spec) => {
        const inner = this.#channels.get(spec.key)?.inner;
        const status =
          inner === undefined
            ? "not connected: retrying in the background (see the log)"
            : inner instanceof WebchatChannel
              ? (inner.url ?? "")
              : "connected";
        return { key: spec.key, status };
      }),
      agents: this.#config.agents.map((agent) => ({ id: agent.id, model: agent.model })),
      store: this.#storeDescription,
      ...(this.#options.modelExplanation === undefined ? {} : { modelExplanation: this.#options.modelExplanation }),
    });
  }

  /** What /readyz reports. */
  readiness(): { ready: boolean; detail: Record<string, unknown> } {
    const storeReachable = this.#storeReachability?.reachable !== false;
    return {
      ready: this.#ready && !this.#stopped && storeReachable,
      detail: {
        store: storeReachable ? "reachable" : "unreachable",
        channels: this.#channels.keys(),
        waiting: this.#channels.waitingKeys(),
        agents: this.#config.agents.map((agent) => agent.id),
      },
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
    if (this.#channelRetry !== undefined) clearTimeout(this.#channelRetry);
    this.#channelRetry = undefined;
    this.#logger.info({ graceMs: this.#config.shutdownGraceMs }, "shutting down: finishing running turns");
    for (const webchat of this.#channels.webchats()) webchat.stopIntake();
    this.#channels.closing();
    const gateway = this.#gateway;
    this.#gateway = undefined;
    if (gateway !== undefined) await gateway.stop(this.#config.shutdownGraceMs);
    await this.#channels.closeAll();
    await this.#memory?.close();
    this.#storeReachability?.stop();
    await this.#store?.close();
    this.#logger.info("stopped");
  }

  async #reload(next: BotConfig): Promise<void> {
    if (this.#stopped) return;
    const previous = this.#config;
    this.#logger.info("reloading the configuration: waiting for running turns to finish");
    await this.#retireGateway();
    try {
      await this.#channels.sync(this.#specsOf(next));
      this.#gateway = await this.#startGateway(next);
      this.#config = next;
      this.#logger.info(
        { channels: this.#channels.keys(), agents: next.agents.map((agent) => agent.id) },
        "configuration reloaded",
      );
      this.#channelRetries = 0;
      this.#scheduleChannelRetry();
    } catch (error) {
      this.#logger.error({ error: describeError(error) }, "could not apply the new configuration; keeping the old one");
      await this.#channels.sync(this.#specsOf(previous));
      this.#gateway = await this.#startGateway(previous);
      throw error;
    }
  }

  /** Holds new messages in the channels while the running Gateway finishes its turns (none is cut short), then drops it. */
  async #retireGateway(): Promise<void> {
    await this.#channels.detachAll();
    const old = this.#gateway;
    this.#gateway = undefined;
    if (old !== undefined) await old.stop(RELOAD_WAIT_MS);
  }

  /** Tries the channels that could not start again later, waiting twice as long as the previous time. */
  #scheduleChannelRetry(): void {
    if (this.#stopped || this.#channelRetry !== undefined || this.#channels.waitingKeys().length === 0) return;
    const first = this.#options.channelRetryMs ?? 5000;
    const delay = Math.min(MAX_CHANNEL_RETRY_MS, first * 2 ** this.#channelRetries);
    this.#channelRetries++;
    this.#logger.info({ channels: this.#channels.waitingKeys(), inMs: delay }, "channels will be tried again");
    this.#channelRetry = setTimeout(() => {
      this.#channelRetry = undefined;
      const run = this.#transition.then(() => this.#retryChannels());
      this.#transition = run.catch((error: unknown) =>
        this.#logger.error({ error: describeError(error) }, "could not take on a channel that started late"),
      );
    }, delay);
    this.#channelRetry.unref?.();
  }

  async #retryChannels(): Promise<void> {
    if (this.#stopped) return;
    const started = await this.#channels.openWaiting();
    if (started.length > 0) {
      // Messages reaching the new channel meanwhile wait in it until the new Gateway attaches.
      this.#logger.info({ channels: started }, "channels started on a later try; a new gateway takes them on");
      await this.#retireGateway();
      this.#gateway = await this.#startGateway(this.#config);
    }
    this.#scheduleChannelRetry();
  }

  #specsOf(config: BotConfig): ChannelSpec[] {
    return [...channelSpecsOf(config), ...(this.#options.extraChannels ?? [])];
  }

  async #startGateway(config: BotConfig): Promise<Gateway> {
    const store = this.#store;
    if (store === undefined) throw new Error("the store is not open");
    const options = this.#options;
    const gateway = await buildGateway(config, {
      store,
      channels: this.#channels.all(),
      events: this.#events,
      logger: this.#logger,
      selfIds: this.#channels.selfIds,
      cwd: this.#cwd,
      isAdmin: (message) => this.#admins.isAdmin(message),
      ...(this.#memory === undefined ? {} : { memory: this.#memory.options }),
      ...(options.demoTokenDelayMs === undefined ? {} : { demoTokenDelayMs: options.demoTokenDelayMs }),
      ...(options.wrapStreamFn === undefined ? {} : { wrapStreamFn: options.wrapStreamFn }),
      ...(options.extraPolicies === undefined ? {} : { extraPolicies: options.extraPolicies }),
      ...(options.outboxPollMs === undefined ? {} : { outboxPollMs: options.outboxPollMs }),
      ...(options.telemetry === undefined ? {} : { telemetry: options.telemetry }),
    });
    await gateway.start();
    return gateway;
  }
}
