import type { InboundMessage, OutboundButton } from "@chorus/channel";
import type { ClusterInstance, PairingScope, QueueMode, SessionRecord, TrustTier } from "@chorus/store";
import type { ApprovalAnswerBy, ApprovalAnswerOutcome } from "../approvals/approval-desk.js";
import type { SessionChange } from "../config/session-change-schema.js";
import type { AgentCommand, AgentsSection, ExtensionCommandContext, ExtensionReply } from "../extension/index.js";
import type { FleetView } from "../fleet/fleet-view.js";
import type { SessionActor, StopBy } from "../permissions/session-change-permission.js";
import type { PairingService } from "../policy/pairing/pairing-service.js";

/** A session's state for /status. */
export interface SessionStatus {
  readonly agentId: string;
  readonly model: string;
  /** Estimated tokens of the session's transcript (the system prompt and tool definitions not counted). */
  readonly contextTokens: number;
  /** The context window of the session's model, in tokens; 0 when unknown. */
  readonly contextMaxTokens: number;
  /** US dollars spent by this session's runs. */
  readonly cost: number;
  readonly queueMode: QueueMode;
  readonly queued: number;
  readonly running: boolean;
  /** The last hard compaction: estimated tokens before → after, and when (epoch ms; absent in older records). */
  readonly lastCompaction?: { readonly before: number; readonly after: number; readonly atMs?: number };
  /** The extensions' own lines (`statusLines`, e.g. the active subgoal), shown after the gateway's. */
  readonly extensionLines?: readonly string[];
  /** A cluster's instances (id, shards held, heartbeat age); undefined outside a cluster. */
  readonly instances?: readonly ClusterInstance[];
  /** A cluster: the instance that owns this session now (where its turns run), when one answered. */
  readonly owner?: string;
}

/** The outcome of /model <id>. */
export type ModelSwitch =
  | { readonly ok: true; readonly model: string }
  | { readonly ok: false; readonly known: readonly string[] };

/** The outcome of /stop; `goalKept`: an autonomous goal someone else started runs on. */
export interface StopOutcome {
  readonly stopped: boolean;
  readonly dropped: number;
  readonly goalKept?: boolean;
}

/** What commands may do to the gateway. */
export interface CommandHost {
  /**
   * Stops the run, clears the queue and starts the conversation afresh; `by` (a person) must be allowed to end the
   * chat's autonomous goal, if one is live. Contract: resolves with a refusal sentence (nothing changed), or undefined.
   */
  newSession(sessionKey: string, by?: SessionActor): Promise<string | undefined>;
  /** Stops the run and its sub-agents, clears the queue (`by`: how much of it; everything without). */
  stopSession(sessionKey: string, by?: StopBy): Promise<StopOutcome>;
  /** Summarises older messages now. Contract: resolves with a sentence for the user. */
  compactSession(sessionKey: string): Promise<string>;
  setQueueMode(sessionKey: string, mode: QueueMode): Promise<void>;
  currentModel(sessionKey: string): Promise<string>;
  /** The models an agent's chats may switch to (its `models`, default its own model). */
  knownModels(agentId: string): readonly string[];
  /** Contract: an id outside the agent's `knownModels` is refused, and nothing is stored. */
  switchModel(sessionKey: string, agentId: string, modelId: string): Promise<ModelSwitch>;
  status(sessionKey: string): Promise<SessionStatus>;
  readonly pairing: PairingService;
  fleet(): Promise<FleetView>;
  /** Markdown about one agent, or undefined for an unknown id. */
  agentInfo(agentId: string): Promise<string | undefined>;
  agentSessions(agentId: string): Promise<readonly SessionRecord[] | undefined>;
  /**
   * Stops a run and everything below it and tells its chat, in whichever instance of a cluster runs it.
   * Contract: `killed` is empty for an unknown run; `instance` names the other instance that stopped it;
   * `unanswered` says the run is running in the store but no instance answered for it (its instance is gone).
   */
  killRun(
    runId: string,
  ): Promise<{ readonly killed: readonly string[]; readonly instance?: string; readonly unanswered?: boolean }>;
  /**
   * Answers a tool call waiting for approval, wherever its run is (in a cluster, the instance whose run asked).
   * Contract: never rejects; the outcome says why nothing happened.
   */
  answerApproval(code: string, approve: boolean, by: ApprovalAnswerBy): Promise<ApprovalAnswerOutcome>;
  /** The gateway's clock (epoch ms). */
  now(): number;
  /**
   * Runs an extension's `atOwner` command where the session's turns run (in a cluster, its owner). Contract: resolves
   * with the command's answer, or a sentence saying it was not (or may not have been) carried out. Without it the
   * command runs here.
   */
  extensionAtOwner?(name: string, context: ExtensionCommandContext): Promise<string | ExtensionReply>;
  /** The `/words` an agent answers itself (its extensions' `agentCommands`, e.g. skills); none for an unknown agent. */
  agentCommands?(agentId: string): readonly AgentCommand[];
  /** The extensions' sections of `/agents`, in order. */
  readonly agentsSections?: readonly AgentsSection[];
}

/** Everything a command handler sees. */
export interface CommandContext {
  readonly message: InboundMessage;
  readonly sessionKey: string;
  readonly agentId: string;
  /** The sender is an admin of this channel account (owner tier). */
  readonly isAdmin: boolean;
  /** The sender's trust tier in this chat. */
  readonly trust: TrustTier;
  /** In a group: the session changes its members may make (`membersMay`); empty in a DM. */
  readonly membersMay: readonly SessionChange[];
  readonly scope: PairingScope;
  readonly args: readonly string[];
  readonly host: CommandHost;
  /** Every command the sender's gateway runs (builtins, then extensions'), for /help; default the builtins. */
  readonly commands?: readonly CommandDefinition[];
}

/** A command's answer with buttons under it (shown where the platform has buttons; each carries a command). */
export interface CommandReply {
  readonly text: string;
  readonly buttons: readonly OutboundButton[];
}

/** A builtin command. Contract: resolves with the Markdown reply (the reply layer fits it to the channel). */
export interface CommandDefinition {
  readonly name: string;
  readonly usage: string;
  readonly description: string;
  readonly adminOnly: boolean;
  /** Answer only the sender where the platform can (a Discord or Slack command's ephemeral reply). */
  readonly ephemeral?: boolean;
  /** The change to the chat's shared session these words make (checked by `mayChangeSession` before `run`). */
  sessionChange?(args: readonly string[]): SessionChange | undefined;
  run(context: CommandContext): Promise<string | CommandReply>;
}
