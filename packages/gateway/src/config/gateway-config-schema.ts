import { KEY_ID_PATTERN, QUEUE_MODES } from "@chorus/store";
import { z } from "zod";
import { budgetConfigSchema } from "./budget-config.js";
import { compactionConfigSchema } from "./compaction-config.js";
import { contextRestorationConfigSchema, toolOutputCompressionConfigSchema } from "./context-features-config.js";
import { goalConfigSchema } from "./goal-config.js";
import { reminderConfigSchema } from "./reminder-config.js";
import { sessionChangeSchema } from "./session-change-schema.js";

const idSchema = z
  .string()
  .regex(
    KEY_ID_PATTERN,
    "expected an id of lower-case letters, digits, '_' or '-' (1–64, starting with a letter or digit)",
  );
const platformIdSchema = z.string().min(1, "expected a non-empty platform id");

/**
 * Output cap of a model call when an agent sets none: long answers and large tool arguments (a file written whole) fit,
 * and a budget reserves ~8 k tokens per call instead of a model's whole maximum (64 000 on Claude Sonnet).
 */
export const DEFAULT_MAX_OUTPUT_TOKENS = 8192;

/** How a message that arrives while its session is busy is handled. */
export const queueModeSchema = z.enum(QUEUE_MODES);

/** Which tools an agent (or a group) may use: tool names, or "group:<name>" for a tool group. Deny wins over allow. */
export const toolPolicySchema = z.strictObject({
  allow: z.array(z.string().min(1)).optional(),
  deny: z.array(z.string().min(1)).optional(),
});

/** Limits on the sub-agents an agent may spawn. */
export const subagentLimitsSchema = z.strictObject({
  maxSpawnDepth: z.int().min(1).max(5).default(1),
  maxChildrenPerRun: z.int().min(1).max(100).default(5),
  maxConcurrent: z.int().min(1).max(1000).default(8),
});

/** One configured agent. */
export const agentConfigSchema = z.strictObject({
  id: idSchema,
  model: z.string().min(1, "expected a model id"),
  /**
   * The models `/model` may switch this agent's chats to (ids the model catalog knows). Default: only `model`, so a
   * chat cannot be switched to another (possibly far dearer) model unless the operator lists it here.
   */
  models: z.array(z.string().min(1, "expected a model id")).min(1).optional(),
  systemPrompt: z.string().optional(),
  toolPolicy: toolPolicySchema.optional(),
  subagents: subagentLimitsSchema.prefault({}),
  /** Goals: /goal, completion phrases, `{current_goal}`, autonomous goals and their supervisor (see docs/goals.md). */
  goals: goalConfigSchema.prefault({}),
  /** Spending limits: tokens and US dollars per UTC day and per goal (see docs/goals.md "Budgets"). */
  budgets: budgetConfigSchema.prefault({}),
  /**
   * The most output one model call may produce (the provider's `max_tokens`), for every call the agent's sessions
   * cause; a budget reserves this much output per call. Default 8192 (see docs/goals.md "Budgets"); a model with a
   * smaller maximum keeps its own.
   */
  maxOutputTokens: z
    .int("maxOutputTokens must be a whole number of tokens")
    .min(256, "maxOutputTokens must be at least 256: a smaller cap cuts most answers short")
    .default(DEFAULT_MAX_OUTPUT_TOKENS),
  /** TACO: large tool outputs summarised by a fast model before they enter the transcript (seed 002). Default off. */
  toolOutputCompression: toolOutputCompressionConfigSchema.prefault({}),
  /** A chat's `/model` choice is stored and restored after a restart (seed 002). Default true. */
  modelPersistence: z.boolean().default(true),
  /** Recently read files re-attached after a compaction (seed 004). Default on. */
  contextRestoration: contextRestorationConfigSchema.prefault({}),
  /** Compaction: subgoal-aware pruning and the chat's compaction status line (see the gateway README). */
  compaction: compactionConfigSchema.prefault({}),
  /** System reminders before each model call (time passed, approval outcomes, changed files); see reminder-config. */
  reminders: reminderConfigSchema.optional(),
  /**
   * A `/word` that is neither a builtin command nor a skill: `answer` (default) replies with the closest command and
   * a pointer to /help; `pass` sends it to the agent as text (for chats whose users type slashes in prose).
   */
  unknownCommands: z.enum(["answer", "pass"]).default("answer"),
});

/** What a binding matches. Every given field must match; `guild` and `team` are the same tier (Discord / Slack). */
export const bindingMatchSchema = z.strictObject({
  channel: idSchema.optional(),
  accountId: idSchema.optional(),
  /** A DM peer: the sender's platform user id. */
  peer: platformIdSchema.optional(),
  /** A group chat id (its threads included). */
  group: platformIdSchema.optional(),
  guild: platformIdSchema.optional(),
  team: platformIdSchema.optional(),
});

/** Sends matching messages to an agent. */
export const bindingSchema = z.strictObject({
  agentId: idSchema,
  match: bindingMatchSchema,
});

/** Trust of members of a configured group (admins are always "owner"). */
export const groupTrustSchema = z.enum(["trusted", "guest"]);

/** Settings of one allowed group. */
export const groupConfigSchema = z.strictObject({
  requireMention: z.boolean().default(true),
  trust: groupTrustSchema.default("trusted"),
  toolPolicy: toolPolicySchema.optional(),
  queueMode: queueModeSchema.optional(),
  /**
   * Session changes the group's members may make besides its admins: model, queue, memory, plan, new, stop, compact.
   * Default none: in a group only admins switch its model, queue mode, memory or plan mode, start it afresh, stop
   * others' work or compact it (see docs/security.md "Who may use each command").
   */
  membersMay: z.array(sessionChangeSchema).default([]),
});

/** Who may talk to the bot in DMs. */
export const dmPolicySchema = z.enum(["pairing", "allowlist", "open", "disabled"]);
/** Which groups the bot answers in. */
export const groupPolicySchema = z.enum(["allowlist", "open"]);

/**
 * Policy for a channel, or for one account of it when `accountId` is set. Unset fields fall back to the
 * channel-wide entry, then to the defaults (see resolveChannelPolicy).
 */
export const channelPolicyEntrySchema = z.strictObject({
  channel: idSchema,
  accountId: idSchema.optional(),
  /** Sender ids with the owner tier on this channel (they can approve pairings, use /agents, …). */
  admins: z.array(platformIdSchema).optional(),
  dmPolicy: dmPolicySchema.optional(),
  /** DM senders allowed without pairing. */
  allowFrom: z.array(platformIdSchema).optional(),
  groupPolicy: groupPolicySchema.optional(),
  groups: z.record(platformIdSchema, groupConfigSchema).optional(),
  /** Answer other bots at all (never our own messages). */
  allowBots: z.boolean().optional(),
  /** How many bot messages in a row, in one chat, the gateway answers before it stops (a loop brake). */
  botHopLimit: z.int().min(0).max(50).optional(),
  queueMode: queueModeSchema.optional(),
});

/** The gateway's configuration, as written by the user. */
export const gatewayConfigSchema = z.strictObject({
  agents: z.array(agentConfigSchema).min(1, "expected at least one agent"),
  /** The agent for messages no binding matches; defaults to the first agent. */
  defaultAgent: idSchema.optional(),
  bindings: z.array(bindingSchema).default([]),
  channels: z.array(channelPolicyEntrySchema).default([]),
});

export type ToolPolicyConfig = z.output<typeof toolPolicySchema>;
export type SubagentLimits = z.output<typeof subagentLimitsSchema>;
export type AgentConfig = z.output<typeof agentConfigSchema>;
export type BindingMatch = z.output<typeof bindingMatchSchema>;
export type Binding = z.output<typeof bindingSchema>;
export type GroupConfig = z.output<typeof groupConfigSchema>;
export type GroupTrust = z.output<typeof groupTrustSchema>;
export type DmPolicy = z.output<typeof dmPolicySchema>;
export type GroupPolicy = z.output<typeof groupPolicySchema>;
export type ChannelPolicyEntry = z.output<typeof channelPolicyEntrySchema>;
/** A channel policy entry as the user may write it (defaults optional). */
export type ChannelPolicyEntryInput = z.input<typeof channelPolicyEntrySchema>;
/** A validated configuration, defaults applied. */
export type GatewayConfig = z.output<typeof gatewayConfigSchema>;
/** A configuration as the user may write it (defaults optional). */
export type GatewayConfigInput = z.input<typeof gatewayConfigSchema>;
