import { posix } from "node:path";
import { contextSettingsSchema } from "@chorus/extension-context";
import { mediaConfigSchema } from "@chorus/extension-media";
import {
  agentConfigSchema,
  bindingSchema,
  dmPolicySchema,
  groupConfigSchema,
  groupPolicySchema,
  queueModeSchema,
} from "@chorus/gateway";
import { z } from "zod";
import { mcpServerListSchema } from "../mcp/mcp-server-schema.js";
import { missingAccessTokenMessage } from "../webchat/access-token-required.js";
import { isLoopbackBind } from "../webchat/local-request.js";
import { agentLoopFields } from "./agent-loop-settings.js";

const accountIdSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, "expected an account id of lower-case letters, digits, '_' or '-'")
  .default("main");
// biome-ignore lint/suspicious/noTemplateCurlyInString: the message shows the config's ${ENV_VAR} syntax
const secretSchema = z.string().min(1, "expected a non-empty secret (use ${ENV_VAR} to read it from the environment)");
const urlSchema = z.url({ error: "expected an absolute URL such as http://127.0.0.1:11434/v1" });

/** Who may talk to one channel account; unset fields fall back to `policies.<channel>`, then the gateway defaults. */
const channelPolicyFields = {
  /** Sender ids with the owner tier on this account (added to the top-level `admins` of the channel). */
  admins: z.array(z.string().min(1)).optional(),
  dmPolicy: dmPolicySchema.optional(),
  allowFrom: z.array(z.string().min(1)).optional(),
  groupPolicy: groupPolicySchema.optional(),
  groups: z.record(z.string().min(1), groupConfigSchema).optional(),
  allowBots: z.boolean().optional(),
  botHopLimit: z.int().min(0).max(50).optional(),
  queueMode: queueModeSchema.optional(),
};

/** Channel-wide policy defaults (the `policies` section), same fields as on an account. */
export const channelPolicyDefaultsSchema = z.strictObject(channelPolicyFields);

/** One Discord bot account. */
export const discordAccountSchema = z.strictObject({
  accountId: accountIdSchema,
  token: secretSchema,
  /** REST base URL (tests, proxies), e.g. http://127.0.0.1:PORT/api; default Discord's. */
  restApi: urlSchema.optional(),
  /**
   * Gateway shards: a count, or "auto" for the count Discord recommends (`GET /gateway/bot`). Default 1. In a
   * cluster each shard is connected by one instance, and moves when that instance dies.
   */
  shards: z.union([z.literal("auto"), z.int().min(1).max(1024)]).optional(),
  /** Spacing of IDENTIFYs per `max_concurrency` bucket in one process, in ms. Default 5000 (Discord's). */
  identifyIntervalMs: z.int().min(0).max(60_000).optional(),
  ...channelPolicyFields,
});

/** One Slack app: Socket Mode with `appToken`, or HTTP mode with `signingSecret`. */
export const slackAccountSchema = z
  .strictObject({
    accountId: accountIdSchema,
    botToken: secretSchema,
    appToken: secretSchema.optional(),
    signingSecret: secretSchema.optional(),
    /** HTTP mode: port and address of the events endpoint (/slack/events). Default 3000 on 127.0.0.1. */
    port: z.int().min(0).max(65_535).default(3000),
    host: z.string().min(1).default("127.0.0.1"),
    /** Web API base (tests, proxies), e.g. http://127.0.0.1:PORT/api/; default Slack's. */
    slackApiUrl: urlSchema.optional(),
    /** Answer every message in channels the app is in, not only mentions. Default false. */
    respondToAllMessages: z.boolean().optional(),
    ...channelPolicyFields,
  })
  .refine((value) => value.appToken !== undefined || value.signingSecret !== undefined, {
    message: "expected appToken (Socket Mode) or signingSecret (HTTP mode)",
    path: ["appToken"],
  });

/** One Telegram bot. */
export const telegramAccountSchema = z.strictObject({
  accountId: accountIdSchema,
  token: secretSchema,
  /** Bot API root without a trailing slash (tests, local Bot API servers); default Telegram's. */
  apiRoot: urlSchema.optional(),
  mode: z.enum(["polling", "webhook"]).default("polling"),
  webhook: z
    .strictObject({
      secretToken: secretSchema,
      port: z.int().min(0).max(65_535).optional(),
      host: z.string().min(1).optional(),
      publicUrl: urlSchema.optional(),
    })
    .optional(),
  ...channelPolicyFields,
});

/** One WebChat page served by the bot. */
export const webchatAccountSchema = z
  .strictObject({
    accountId: accountIdSchema,
    /**
     * The address to listen on. Default 127.0.0.1 (this machine only). Any host but 127.0.0.1, ::1 and localhost
     * makes the page reachable from elsewhere and needs `accessToken`.
     */
    host: z.string().min(1).default("127.0.0.1"),
    port: z.int().min(0).max(65_535).default(8787),
    /**
     * Browsers on this machine (connecting from 127.0.0.1 or ::1, not through a proxy) get the owner tier (they can
     * run /agents). Never applies to a connection from another address. Default true.
     */
    localAdmin: z.boolean().default(true),
    /**
     * A secret the page asks for once before it opens the chat; required when `host` is not loopback. Use
     * `${CHORUS_WEBCHAT_TOKEN}` to read it from the environment. At least 16 characters.
     */
    accessToken: z.string().min(16, "expected an access token of at least 16 characters").optional(),
    /**
     * The host names browsers use to reach the page when `host` is not loopback (the Host header is checked
     * against them; no DNS rebinding). Default: the bind host itself. A loopback bind answers to 127.0.0.1,
     * localhost and ::1 only.
     */
    allowedHosts: z.array(z.string().min(1)).optional(),
    /**
     * `GET /metrics` answers scrapers on this machine only; a scraper elsewhere sends `Authorization: Bearer <this>`.
     * Use `${CHORUS_METRICS_TOKEN}` to read it from the environment. At least 16 characters.
     */
    metricsToken: z.string().min(16, "expected a metrics token of at least 16 characters").optional(),
    /** The largest file a browser may attach (upload), in bytes. Default 20 MB. */
    maxAttachmentBytes: z.int().min(1).optional(),
    ...channelPolicyFields,
  })
  .superRefine((account, context) => {
    if (!isLoopbackBind(account.host) && account.accessToken === undefined) {
      context.addIssue({
        code: "custom",
        path: ["accessToken"],
        message: missingAccessTokenMessage(account.host),
      });
    }
    if ((account.host === "0.0.0.0" || account.host === "::") && account.allowedHosts === undefined) {
      context.addIssue({
        code: "custom",
        path: ["allowedHosts"],
        message: `expected allowedHosts: the names browsers use to reach the page (e.g. [chat.example.com]); a page bound to ${account.host} answers to no Host by default`,
      });
    }
  });

/** A workspace name (a folder under `<dataDir>/workspaces/`) or a path (with a `/`, resolved like dataDir). */
const workspaceSchema = z
  .string()
  .min(1)
  .refine((value) => /^[a-z0-9][a-z0-9_-]{0,63}$/.test(value) || value.includes("/"), {
    message: "expected a workspace name (lower-case letters, digits, '_' or '-') or a path containing '/'",
  });

/** A folder inside the agent's workspace, written relative to it (no `..`, not absolute, not the root itself). */
const workspaceFolderSchema = z
  .string()
  .min(1)
  .refine(
    (value) => {
      const normal = posix.normalize(value).replace(/\/+$/, "");
      return (
        !posix.isAbsolute(value) &&
        !/[\\\0]/.test(value) &&
        normal !== "." &&
        normal !== ".." &&
        !normal.startsWith("../")
      );
    },
    { message: "expected a folder inside the workspace, e.g. public (no '..', not absolute, not the whole workspace)" },
  );

/** What a tool call needs before it runs: ask a person (approval buttons), nothing (allow), or never run (deny). */
export const approvalModeSchema = z.enum(["ask", "allow", "deny"]);

/** A tool name (`exec`, `mcp__github__create_issue`) or a tool group (`group:fs-write`). */
const approvalKeySchema = z
  .string()
  .regex(
    /^(?:group:(?:fs-read|fs-write|exec|web|sessions|admin|info|mcp)|[A-Za-z0-9_][A-Za-z0-9_.-]*)$/,
    "expected a tool name or group:<fs-read|fs-write|exec|web|sessions|admin|info|mcp>",
  );

/**
 * One operator hook: a shell command, run in the config file's folder (relative paths in it resolve there, never in a
 * workspace the model can write) with the event as JSON on stdin.
 */
const shellHookSchema = z.strictObject({
  command: z.string().min(1, "expected a shell command"),
  /** Killed and treated as a failure after this long. Default 10 000 ms. */
  timeoutMs: z.int().min(1).max(600_000).optional(),
  /**
   * Variables the hook gets on top of exec's scrubbed environment (PATH, HOME, USER, LANG…); nothing else of the bot's
   * environment (API keys, bot tokens) reaches it. `${NAME}` reads a value from the bot's environment.
   */
  env: z
    .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "expected an environment variable name"), z.string())
    .optional(),
});
const shellHookListSchema = z.array(shellHookSchema).optional();

/** Operator hooks by event (seed 003). Only this file configures them; a chat user or the model never can. */
export const agentHooksSchema = z.strictObject({
  turn_start: shellHookListSchema,
  pre_compact: shellHookListSchema,
  pre_prompt: shellHookListSchema,
  pre_tool_use: shellHookListSchema,
  post_tool_use: shellHookListSchema,
  /** When a session ends: let go after its idle time (`reason: "idle"`) or cleared by `/new` (`"cleared"`). */
  session_end: shellHookListSchema,
});

/**
 * One agent: the gateway's agent fields plus where its files live and who is asked before its tools change things.
 */
export const botAgentSchema = agentConfigSchema.extend({
  /**
   * The agent's workspace: a name (folder `<dataDir>/workspaces/<name>`) or a path. Default: its own folder named
   * after the agent id. Agents naming the same workspace share it.
   */
  workspace: workspaceSchema.optional(),
  /** Folders of the workspace that guests may read (read_file, list_dir, glob, grep). Default: none. */
  guestRead: z.array(workspaceFolderSchema).optional(),
  /**
   * Per tool or tool group: ask | allow | deny. A tool's own entry wins over its groups'; tools with no entry follow
   * the default (writes and exec ask, except for the owner in their own DM).
   */
  approvals: z.record(approvalKeySchema, approvalModeSchema).optional(),
  /**
   * Shell commands at turn start, before compaction, before the prompt is sent, before each tool (a non-zero exit
   * blocks the call with its stderr), after each tool and when a session ends (errors logged). They run as the bot's user, in the config
   * file's folder; a hook whose script lies inside any agent's workspace is refused at start.
   */
  hooks: agentHooksSchema.optional(),
  /**
   * MCP servers whose tools the agent gets (`mcp__<server>__<tool>`, group `mcp`): stdio commands or Streamable HTTP
   * endpoints, checked by `chorus doctor`, reconnected when they die. Their tools follow the tiers (owner only by
   * default) and ask for approval like exec unless `approvals` says otherwise.
   */
  mcpServers: mcpServerListSchema.optional(),
  /**
   * When the agent's MCP servers offer more tools than this, each turn is offered only this many: the most relevant
   * to the turn's input (seed 003 step 13), chosen at the turn's start. Default: all of them.
   */
  mcpToolLimit: z.int().min(0).max(500).optional(),
  /** `/plan`: the agent only reads until the user approves its proposed plan. Default false. */
  planMode: z.boolean().optional(),
  /**
   * The auto-skill drafter (seed 003 step 20): three successful turns in a row on one task signature draft a SKILL.md
   * into `<workspace>/skills/.pending`, never loaded until an admin approves it with `/skilldrafts approve <name>` in a
   * DM. Default false.
   */
  skillDrafter: z.boolean().optional(),
  /**
   * The Thompson-sampled skill router (seed 003): each turn's system prompt gets one non-binding hint naming the skill
   * whose past turns ended best (sampled), credited by how the turn ends; arms kept in the memory store. Default false.
   */
  skillRouter: z.boolean().optional(),
  /** Context management kept per session (@chorus/extension-context): every feature off unless set here. */
  context: contextSettingsSchema.prefault({}),
  /**
   * Where exec runs (seed 002 "Per-Turn ExecutionContext"): each session has a working directory, fixed at the start of
   * every turn. `changeDirectory` adds the set_working_directory tool (default false: exec runs at the workspace root);
   * `env` is added to every exec call's environment.
   */
  exec: z
    .strictObject({
      changeDirectory: z.boolean().default(false),
      env: z
        .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "expected an environment variable name"), z.string())
        .default({}),
    })
    .prefault({}),
  /** Fallback models, max turns, the stall watchdog, and compaction's level, model and thresholds (seed 003, 004). */
  ...agentLoopFields,
});

/** An Anthropic account. */
const anthropicProviderSchema = z.strictObject({
  apiKey: secretSchema.optional(),
  baseUrl: urlSchema.optional(),
  /** Prompt-cache lifetime: 5m (default), 1h, or auto (1h once a request clears the 1024-token caching minimum). */
  cacheTtl: z.enum(["5m", "1h", "auto"]).optional(),
});
/** An OpenAI account. */
const openaiProviderSchema = z.strictObject({ apiKey: secretSchema.optional(), baseUrl: urlSchema.optional() });
/** An OpenAI-compatible server (Ollama, vLLM, LM Studio, OpenRouter…), named by the `provider` of its models. */
const compatibleProviderSchema = z.strictObject({ baseUrl: urlSchema, apiKey: secretSchema.optional() });

/** A model the built-in registry does not know (typically one served by a compatible server). */
export const modelDefinitionSchema = z.strictObject({
  id: z.string().min(1),
  provider: z.string().min(1),
  api: z.enum(["anthropic-messages", "openai-chat", "openai-responses", "scripted"]).optional(),
  contextWindow: z.int().positive().default(128_000),
  maxOutput: z.int().positive().optional(),
  cost: z
    .strictObject({
      input: z.number().min(0),
      output: z.number().min(0),
      cacheRead: z.number().min(0).default(0),
      cacheWrite: z.number().min(0).default(0),
    })
    .optional(),
});

/** The whole bot configuration (chorus.config.yaml). */
/** `memory.people`: person name → the platform accounts (`<channel>:<user id>`) that are that person. */
const memoryPeopleSchema = z
  .record(
    z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, "expected a plain name (letters, digits, _ . -)"),
    z.array(z.string().regex(/^[a-z]+:[^\s]+$/, "expected <channel>:<user id>, e.g. telegram:123")).min(1),
  )
  .superRefine((people, ctx) => {
    const owner = new Map<string, string>();
    for (const [person, accounts] of Object.entries(people)) {
      for (const account of accounts) {
        const other = owner.get(account);
        if (other !== undefined && other !== person) {
          ctx.addIssue({ code: "custom", path: [person], message: `${account} is already ${other}'s account` });
        }
        owner.set(account, person);
      }
    }
  });

export const botConfigSchema = z.strictObject({
  /** This instance's name in a cluster (store `cluster: true`): in logs and lease rows. Default host:pid. */
  instanceId: z.string().min(1).max(200).optional(),
  /** Where the store, the demo workspace and the agents' workspaces live. Default ./data */
  dataDir: z.string().min(1).default("./data"),
  providers: z
    .strictObject({
      anthropic: anthropicProviderSchema.optional(),
      openai: openaiProviderSchema.optional(),
      compatible: z.record(z.string().regex(/^[a-z0-9][a-z0-9_-]*$/), compatibleProviderSchema).optional(),
    })
    .default({}),
  models: z.array(modelDefinitionSchema).default([]),
  agents: z.array(botAgentSchema).min(1, "expected at least one agent"),
  defaultAgent: z.string().optional(),
  bindings: z.array(bindingSchema).default([]),
  channels: z
    .strictObject({
      discord: z.array(discordAccountSchema).default([]),
      slack: z.array(slackAccountSchema).default([]),
      telegram: z.array(telegramAccountSchema).default([]),
      webchat: z.array(webchatAccountSchema).default([]),
    })
    .default({ discord: [], slack: [], telegram: [], webchat: [] }),
  /** Owner-tier sender ids per channel kind, e.g. `{ telegram: ["123456"] }`; they apply to every account. */
  admins: z.partialRecord(z.enum(["discord", "slack", "telegram", "webchat"]), z.array(z.string().min(1))).default({}),
  /** Channel-wide policy defaults per channel kind; an account's own fields win. */
  policies: z
    .partialRecord(z.enum(["discord", "slack", "telegram", "webchat"]), channelPolicyDefaultsSchema)
    .default({}),
  store: z
    .discriminatedUnion("kind", [
      z.strictObject({ kind: z.literal("sqlite"), path: z.string().min(1).optional() }),
      z.strictObject({ kind: z.literal("memory") }),
      z.strictObject({
        kind: z.literal("postgres"),
        /** `postgres://user:password@host:5432/database`, usually `${DATABASE_URL}`; the password is never logged. */
        url: z
          .string()
          .min(1)
          .refine((url) => /^postgres(ql)?:\/\//.test(url), "expected a postgres:// or postgresql:// URL"),
        /** The schema holding Chorus's tables (created at start). Default public. */
        schema: z
          .string()
          .regex(/^[A-Za-z_][A-Za-z0-9_]{0,62}$/, "expected a plain SQL name (letters, digits, _)")
          .optional(),
        /**
         * Run as one instance of a cluster on this database: sessions are owned by shard leases (any number of
         * `chorus start` share the database) instead of one gateway per database. Default false.
         */
        cluster: z.boolean().optional(),
        /** In a cluster: how long a lease lasts unrenewed, i.e. how soon a dead instance's sessions move. Default 3000. */
        leaseMs: z.int().min(300).max(300_000).optional(),
        /**
         * In a cluster: how long a reply whose send was under way at an instance that lost its sessions waits before
         * the new owner sends it again (meanwhile its sender, if only cut off, records it sent). Default 0.
         */
        unknownOutcomeGraceMs: z.int().min(0).max(600_000).optional(),
      }),
    ])
    .default({ kind: "sqlite" }),
  logging: z
    .strictObject({
      level: z.enum(["trace", "debug", "info", "warn", "error", "fatal", "silent"]).default("info"),
      format: z.enum(["auto", "pretty", "json"]).default("auto"),
    })
    .default({ level: "info", format: "auto" }),
  /**
   * Photos, documents and voice notes people send, and files the agent sends (`@chorus/extension-media`): limits,
   * a transcription endpoint (`transcription: { baseUrl, apiKey, model }`, OpenAI-compatible), the download cache
   * (`<dataDir>/media/cache`), and per-agent overrides under `agents.<id>`. On with its defaults when absent.
   */
  media: mediaConfigSchema.prefault({}),
  /**
   * Session titles written by a cheap model (`@chorus/extension-titles`): after a session's first exchange, in the
   * background (the reply never waits), one call titles it from the first message and the reply; `/agents sessions`
   * shows it. One model for every agent (each call is still booked against the session's agent's budget). Without
   * this section a session is titled by its first message's first line.
   */
  titles: z
    .strictObject({
      /** A model id or `provider/model`, like an agent's model: a cheap one. */
      model: z.string().min(1),
      /** A title call still running after this long is abandoned (the first-line title stays). Default 15000. */
      timeoutMs: z.int().min(100).max(120_000).optional(),
    })
    .optional(),
  /**
   * Long-term memory (`@chorus/memory`): facts per person, group and agent, recalled before each turn; the
   * `remember`, `forget` and `recall` tools; `/memory`. Kept in the session store's own database (SQLite file or
   * PostgreSQL database — every cluster instance shares it), each fact committed with the turn that produced it.
   * Off unless this section is present. Changes need a restart.
   */
  memory: z
    .strictObject({
      enabled: z.boolean().default(true),
      /**
       * A SQLite file of its own for the facts, relative to the config (facts are then written right after their
       * turn's commit, not inside it). Default: the session store's database (`<dataDir>/memory.db` with
       * `store.kind: memory`).
       */
      path: z.string().min(1).optional(),
      /**
       * Identity linking: one person's accounts on several platforms, `<channel>:<user id>`, so their DM facts follow
       * them (`{ alice: ["telegram:123", "discord:456"] }`). Unlisted accounts are each a person of their own.
       */
      people: memoryPeopleSchema.optional(),
      /**
       * The end-of-session extraction pass: once a DM or group goes idle (and on `/new`), a cheap model proposes
       * durable facts from its new messages, each kept with the ids of the messages that state it. Off the reply path.
       */
      extraction: z
        .strictObject({
          /** `provider/model`, like an agent's model. */
          model: z.string().min(1),
          /** How long a session stays quiet before its pass runs. Default 300000 (5 min). */
          idleMs: z.int().min(1).max(86_400_000).optional(),
          /** At most this many facts per pass. Default 10. */
          maxFacts: z.int().min(1).max(50).optional(),
        })
        .optional(),
      /** How long recall before a turn may take; past it the turn runs without. Default 50. */
      recallBudgetMs: z.int().min(1).max(10_000).optional(),
      /** Facts recalled per turn. Default 5. */
      recallCount: z.int().min(1).max(50).optional(),
      /**
       * The per-user model (seed 003): a style detector notes how each person writes (length, formality, language,
       * emoji, code) in their own scope, and each turn's system prompt gets one line about its sender. Default off.
       */
      userModel: z.boolean().optional(),
      /** An OpenAI-compatible embeddings server for hybrid recall (OpenAI, Ollama, vLLM …); default full text only. */
      embeddings: z
        .strictObject({
          baseUrl: z.url(),
          model: z.string().min(1),
          apiKey: z.string().min(1).optional(),
        })
        .optional(),
    })
    .optional(),
  /** Graceful shutdown: how long running turns may take to finish before they are aborted. */
  shutdownGraceMs: z.int().min(0).max(600_000).default(15_000),
  /**
   * A turn a crash or kill left running, at the next start: `notify` (default) tells its chat to reply "continue";
   * `resume` tells the chat and answers the interrupted message by itself (at the guest tier: nobody is asking).
   */
  onRestart: z.enum(["notify", "resume"]).default("notify"),
});

/** The channel kinds the bot can run. */
export type ChannelKind = "discord" | "slack" | "telegram" | "webchat";
/** A validated bot configuration, defaults applied. */
export type BotConfig = z.output<typeof botConfigSchema>;
/** A bot configuration as written. */
export type BotConfigInput = z.input<typeof botConfigSchema>;
/** A Discord account as validated. */
export type DiscordAccount = z.output<typeof discordAccountSchema>;
/** A Slack app as validated. */
export type SlackAccount = z.output<typeof slackAccountSchema>;
/** A Telegram bot as validated. */
export type TelegramAccount = z.output<typeof telegramAccountSchema>;
/** A WebChat page as validated. */
export type WebchatAccount = z.output<typeof webchatAccountSchema>;
/** One agent as validated. */
export type BotAgent = z.output<typeof botAgentSchema>;
/** ask | allow | deny. */
export type ApprovalMode = z.output<typeof approvalModeSchema>;
/** A user-defined model as validated. */
export type ModelDefinition = z.output<typeof modelDefinitionSchema>;
