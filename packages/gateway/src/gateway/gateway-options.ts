import type { Channel, InboundMessage } from "@chorus/channel";
import type {
  AgentHooks,
  AgentLoopConfig,
  AnyAgentTool,
  ExecutionContextSource,
  PreDispatchPolicy,
  RecentFilesSource,
  StreamFn,
} from "@chorus/core";
import type { SessionStore } from "@chorus/store";
import type { SubagentProfile, SubagentSlots, ToolGroupMap, ToolPolicy, TrustTier } from "@chorus/tools";
import type { GatewayConfig, GatewayConfigInput } from "../config/gateway-config-schema.js";
import type { LoopFeatureSources } from "../context-features/agent-loop-features.js";
import type { GatewayEventBus } from "../events/gateway-event-bus.js";
import type { GatewayExtension } from "../extension/index.js";
import type { StoreHousekeepingOptions } from "../housekeeping/store-housekeeper.js";
import type { GatewayLogger } from "../logging/gateway-logger.js";
import type { ModelCatalog } from "../model-preference/model-catalog.js";
import type { PairingOptions } from "../policy/pairing/pairing-service.js";
import type { ReplyMode } from "../reply-manager/reply-manager.js";
import type { GatewayTelemetryOptions } from "../telemetry/telemetry-options.js";
import type { TurnStartRetryOptions } from "./turn-start-retry.js";

export type { ModelCatalog } from "../model-preference/model-catalog.js";

/** What an agent can do beyond its config: its tools, the sub-agents it may spawn, its own `loop` settings. */
export interface AgentRuntimeSetup extends LoopFeatureSources {
  tools?: readonly AnyAgentTool[];
  /** Sub-agent profiles by name (also the child sessions' agent id, so `[a-z0-9][a-z0-9_-]*`). */
  subagents?: Readonly<Record<string, SubagentProfile>>;
  /** Extra tool group members (e.g. the host's admin tools) for the trust-tier gate. */
  toolGroups?: ToolGroupMap;
  /** Per-tier overrides of @chorus/tools' DEFAULT_TIER_POLICIES (e.g. let trusted users spawn sub-agents). */
  tiers?: Partial<Record<TrustTier, ToolPolicy>>;
  /**
   * Extra call-time policies, after the trust-tier gates (e.g. `createApprovalPolicy()` from @chorus/tools: a call
   * it asks about is shown in the chat for `/approve` or `/deny`). They bind the agent's sub-agents too, where a call
   * they would ask about is refused (a sub-agent cannot ask).
   */
  policies?: readonly PreDispatchPolicy[];
  /**
   * Operator hooks (turn start, pre-compact, pre-prompt, pre/post tool; `shellHooksOf` from @chorus/tools for shell
   * commands). Set by the program only: nothing a chat user or the model sends can add one.
   */
  hooks?: AgentHooks;
  /**
   * Each session's working directory and environment, read at the start of every turn (seed 002 "Per-Turn
   * ExecutionContext"; e.g. `new WorkingDirectories().source` from @chorus/tools).
   */
  executionContext?: ExecutionContextSource;
  /**
   * The files a session read recently, re-attached after a compaction when `contextRestoration` is on (seed 004; e.g.
   * `new RecentFileReads().source` from @chorus/tools).
   */
  recentFiles?: RecentFilesSource;
}

/** Everything a Gateway is built from. Only config, store, channels, streamFn and models are required. */
export interface GatewayOptions {
  /** Validated at construction (GatewayConfigError on mistakes). */
  config: GatewayConfigInput | GatewayConfig;
  store: SessionStore;
  channels: readonly Channel[];
  /** Every model call goes through it (tests: the scripted StreamFn; the bot: `providerStreamFn`). */
  streamFn: StreamFn;
  models: ModelCatalog;
  /** The bot's own platform user id per channel account, keyed `<channel>/<accountId>`: its messages are ignored. */
  selfIds?: Readonly<Record<string, string>>;
  /** Tools and sub-agent profiles per agent id. */
  agents?: Readonly<Record<string, AgentRuntimeSetup>>;
  events?: GatewayEventBus;
  logger?: GatewayLogger;
  now?: () => number;
  /** Turns running at once across all sessions. Default 8. */
  maxConcurrentTurns?: number;
  /** Messages waiting per session; beyond it the oldest is dropped and its sender told. Default 20. */
  maxQueuedPerSession?: number;
  /** Collect mode's debounce. Default 500 ms. */
  collectDebounceMs?: number;
  /** An idle session's Agent is dropped after this long (0: at once). Default 60 000 ms. */
  idleEvictMs?: number;
  /** Default "preview" (falls back to block on channels that cannot edit). */
  replyMode?: ReplyMode;
  /**
   * How long a turn works before the chat shows typing (Slack: the working reaction). Default 800 ms: a quick reply
   * costs one platform call instead of three, and a slow one still shows typing while it works. 0: at once.
   */
  typingDelayMs?: number;
  /** A turn running longer is stopped and the chat told. Default 600 000 ms. */
  turnTimeoutMs?: number;
  /** Messages a session accepts per window before it ignores more (a loop brake). Default 30 per 60 s. */
  rateCap?: { messages: number; perMs: number } | false;
  /** Session titles: false for none. Default: the first message's first line (a model's: @chorus/extension-titles). */
  titles?: false;
  pairing?: PairingOptions;
  outbox?: {
    pollMs?: number;
    maxAttempts?: number;
    baseRetryMs?: number;
    transientRetryWindowMs?: number;
    /** How old an in-flight entry's claim gets before a poll claims it again (a write lost in a store outage). */
    reclaimInFlightAfterMs?: number;
  };
  /**
   * How long a message's failed write is tried again where the platform does not deliver it again (Telegram polling,
   * Slack Socket Mode, Discord, WebChat), before its sender is told it was not saved: the failure may have come after
   * the write applied, and a message that is stored is answered, not refused. Default 10 000 ms; 0: told at once.
   */
  inboundWriteRetryMs?: number;
  /**
   * How a turn that could not start because the store did not answer (its transcript read failed in a database blip)
   * is started again: its messages are stored, and the chat's next message is not answered before them. After the
   * last try the chat is told. Default 8 retries, 250 ms doubling to 5 s (≈ 23 s).
   */
  turnStartRetry?: TurnStartRetryOptions;
  /**
   * Features that plug into the gateway (commands, `/agents` sections, turn hooks, a model-call wrapper, tools,
   * start and stop), in order: see `GatewayExtension`. Default none.
   */
  extensions?: readonly GatewayExtension[];
  /** Extra loop settings for every agent (retry strategy, context, timeouts…). */
  loop?: Omit<
    Partial<AgentLoopConfig>,
    "model" | "streamFn" | "tools" | "run" | "messageProvider" | "preDispatchPolicies" | "awaitApproval"
  >;
  /** Sub-agent concurrency slots; default: a fresh pool per Gateway. */
  subagentSlots?: SubagentSlots;
  /**
   * What happens at start to a run a crash left running (it is always marked interrupted and its transcript
   * repaired): `"notify"` (default) tells the chat to reply "continue"; `"resume"` tells the chat and continues the
   * run by itself, as a guest (nobody is asking, so no higher tier can be vouched for).
   */
  onRestart?: "notify" | "resume";
  /**
   * Admins the configuration cannot list, decided per message (e.g. WebChat's local browsers). A sender is an admin
   * when the channel account's `admins` list them or this returns true. Contract: synchronous, cheap, never throws.
   */
  isAdmin?: (message: InboundMessage) => boolean;
  /**
   * Pruning of what the store keeps only for a while (inbound event ids past their dedupe TTL, sent outbox entries
   * past their retention), at start and every 10 minutes, in short steps. `false`: never (the store then grows with
   * every message).
   */
  housekeeping?: StoreHousekeepingOptions | false;
  /** OpenTelemetry: session keys on spans hashed (default) or verbatim; content capture (default off). */
  telemetry?: GatewayTelemetryOptions;
}

/** The defaults of the numeric options. */
export const GATEWAY_DEFAULTS = {
  maxConcurrentTurns: 8,
  maxQueuedPerSession: 20,
  collectDebounceMs: 500,
  idleEvictMs: 60_000,
  turnTimeoutMs: 600_000,
  rateCap: { messages: 30, perMs: 60_000 },
  typingDelayMs: 800,
} as const;
