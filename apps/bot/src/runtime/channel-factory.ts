import { createDiscordChannel } from "@chorus/channel-discord";
import { createSlackChannel } from "@chorus/channel-slack";
import { createTelegramChannel, type TelegramWebhookOptions } from "@chorus/channel-telegram";
import type { Channel, IngressLeases, InstanceBroadcast } from "@chorus/gateway";
import type { BotConfig, ChannelKind } from "../config/bot-config-schema.js";
import type { MetricsHandler } from "../telemetry/bot-telemetry.js";
import { WebchatChannel } from "../webchat/webchat-channel.js";
import type { WebchatMessage } from "../webchat/webchat-protocol.js";

/** A channel account the configuration asks for: its key, how to build it, and what it was built from. */
export interface ChannelSpec {
  /** `<kind>/<accountId>`, as the gateway keys channels. */
  readonly key: string;
  /** The platform, or "terminal" for `chorus chat`. */
  readonly kind: ChannelKind | "terminal";
  readonly accountId: string;
  /** The connection settings; a reload restarts the channel only when these change. */
  readonly fingerprint: string;
  create(hooks: ChannelHooks): Channel;
}

/** What the runtime hands every channel it builds. */
export interface ChannelHooks {
  /** Errors a channel survives (a sink that threw, a platform hiccup). */
  onError(key: string, error: unknown): void;
  /** WebChat: one inbound message (by event id) came over an admin connection. */
  onWebchatAdminMessage(accountId: string, eventId: string): void;
  /** WebChat: the server key file (`<dataDir>/webchat.key`). */
  webchatKeyFile(): string;
  /** WebChat: a browser's stored conversation (its DM and the group). */
  webchatHistory(accountId: string, publicId: string): Promise<readonly WebchatMessage[]>;
  /** WebChat in a cluster: the other instances (the store's `ownership.broadcast`); undefined for one process. */
  instanceBroadcast(): InstanceBroadcast | undefined;
  /** WebChat in a cluster: the server key every instance uses, given this one's; undefined for one process. */
  webchatSharedKey(): ((own: Buffer) => Promise<Buffer>) | undefined;
  /** WebChat: GET /readyz. */
  readiness(): { ready: boolean; detail?: Record<string, unknown> };
  /**
   * Which instance runs a consumer a platform allows once per account (Telegram's long poll, a Discord shard): the
   * store's `ownership.ingress` in a cluster; undefined for one process (every one runs here).
   */
  ingress(): IngressLeases | undefined;
  /** WebChat: GET /metrics (Prometheus text), when telemetry serves it. */
  readonly metrics?: MetricsHandler;
}

/**
 * Every channel account of a configuration, in a stable order (discord, slack, telegram, webchat).
 * Contract: pure; platform libraries are loaded only when a built channel starts.
 */
export function channelSpecsOf(config: BotConfig): ChannelSpec[] {
  const specs: ChannelSpec[] = [];
  for (const account of config.channels.discord) {
    const key = `discord/${account.accountId}`;
    specs.push({
      key,
      kind: "discord",
      accountId: account.accountId,
      fingerprint: JSON.stringify([account.token, account.restApi, account.shards, account.identifyIntervalMs]),
      create: (hooks) =>
        createDiscordChannel({
          accountId: account.accountId,
          token: account.token,
          ...(account.restApi === undefined ? {} : { restApi: account.restApi }),
          ...(account.shards === undefined ? {} : { shards: account.shards }),
          ...(account.identifyIntervalMs === undefined ? {} : { identifyIntervalMs: account.identifyIntervalMs }),
          onError: (error) => hooks.onError(key, error),
        }),
    });
  }
  for (const account of config.channels.slack) {
    const key = `slack/${account.accountId}`;
    specs.push({
      key,
      kind: "slack",
      accountId: account.accountId,
      fingerprint: JSON.stringify([
        account.botToken,
        account.appToken,
        account.signingSecret,
        account.port,
        account.host,
        account.slackApiUrl,
        account.respondToAllMessages,
      ]),
      create: (hooks) =>
        createSlackChannel({
          accountId: account.accountId,
          mode: account.appToken === undefined ? "http" : "socket",
          botToken: account.botToken,
          ...(account.appToken === undefined ? {} : { appToken: account.appToken }),
          ...(account.signingSecret === undefined ? {} : { signingSecret: account.signingSecret }),
          port: account.port,
          host: account.host,
          ...(account.slackApiUrl === undefined ? {} : { slackApiUrl: account.slackApiUrl }),
          ...(account.respondToAllMessages === undefined ? {} : { respondToAllMessages: account.respondToAllMessages }),
          onError: (error) => hooks.onError(key, error),
        }),
    });
  }
  for (const account of config.channels.telegram) {
    const key = `telegram/${account.accountId}`;
    specs.push({
      key,
      kind: "telegram",
      accountId: account.accountId,
      fingerprint: JSON.stringify([account.token, account.apiRoot, account.mode, account.webhook]),
      create: (hooks) =>
        createTelegramChannel({
          accountId: account.accountId,
          token: account.token,
          mode: account.mode,
          ...(account.apiRoot === undefined ? {} : { apiRoot: account.apiRoot.replace(/\/+$/, "") }),
          ...(account.webhook === undefined
            ? {}
            : { webhook: definedFields(account.webhook) as TelegramWebhookOptions }),
          onError: (error) => hooks.onError(key, error),
        }),
    });
  }
  for (const account of config.channels.webchat) {
    const key = `webchat/${account.accountId}`;
    specs.push({
      key,
      kind: "webchat",
      accountId: account.accountId,
      fingerprint: JSON.stringify([
        account.host,
        account.port,
        account.localAdmin,
        account.accessToken,
        account.allowedHosts,
        account.metricsToken,
        account.maxAttachmentBytes,
      ]),
      create: (hooks) => {
        const relay = hooks.instanceBroadcast();
        const sharedKey = hooks.webchatSharedKey();
        return new WebchatChannel({
          accountId: account.accountId,
          host: account.host,
          port: account.port,
          localAdmin: account.localAdmin,
          ...(account.accessToken === undefined ? {} : { accessToken: account.accessToken }),
          ...(account.allowedHosts === undefined ? {} : { allowedHosts: account.allowedHosts }),
          ...(account.metricsToken === undefined ? {} : { metricsToken: account.metricsToken }),
          ...(account.maxAttachmentBytes === undefined ? {} : { maxAttachmentBytes: account.maxAttachmentBytes }),
          keyFile: hooks.webchatKeyFile(),
          onAdminMessage: (eventId) => hooks.onWebchatAdminMessage(account.accountId, eventId),
          storedHistory: (publicId) => hooks.webchatHistory(account.accountId, publicId),
          onError: (error) => hooks.onError(key, error),
          readiness: () => hooks.readiness(),
          ...(hooks.metrics === undefined ? {} : { metrics: hooks.metrics }),
          ...(relay === undefined ? {} : { relay }),
          ...(sharedKey === undefined ? {} : { sharedKey }),
        });
      },
    });
  }
  return specs;
}

function definedFields(value: object): object {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined));
}
