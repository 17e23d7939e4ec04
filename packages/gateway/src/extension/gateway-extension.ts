import type {
  FetchAttachmentOptions,
  FetchedAttachment,
  InboundMessage,
  OutboundButton,
  SessionChat,
} from "@chorus/channel";
import type {
  AgentMessage,
  AgentRunResult,
  AnyAgentTool,
  AttachmentSource,
  Model,
  PreDispatchPolicy,
  StreamFn,
} from "@chorus/core";
import type { SessionRecord, SessionStore, TrustTier } from "@chorus/store";
import type { GatewayConfig } from "../config/gateway-config-schema.js";
import type { SessionChange } from "../config/session-change-schema.js";
import type { OutboxFile } from "../delivery/outbox-payloads.js";
import type { LaneItem } from "../lanes/lane-item.js";
import type { CommandPermission } from "../permissions/command-permission-table.js";
import type { SessionActor } from "../permissions/session-change-permission.js";
import type { CommitSideWrites } from "../reply-manager/commit-side-writes.js";
import type { SessionAgentParts, SessionAgentStart } from "../turn-hooks/session-turn-hooks.js";

export type { SessionAgentParts, SessionAgentStart } from "../turn-hooks/session-turn-hooks.js";

/** Everything an extension's command sees: who typed it, where, and its words. */
export interface ExtensionCommandContext {
  readonly message: InboundMessage;
  readonly sessionKey: string;
  readonly agentId: string;
  /** The sender is an admin of this channel account (owner tier). */
  readonly isAdmin: boolean;
  /** The sender's trust tier in this chat. */
  readonly trust: TrustTier;
  /** The words after the command's name. */
  readonly args: readonly string[];
}

/** An answer with buttons under it (where the platform has buttons); each button carries a command, e.g. `/weather Oslo`. */
export interface ExtensionReply {
  readonly text: string;
  readonly buttons: readonly OutboundButton[];
}

/**
 * A `/command` an extension adds. Contract: `run` resolves with the Markdown answer; a throw is answered with a
 * generic failure sentence (its detail goes to the log only). `adminOnly` commands from anyone else are refused before
 * `run` is called.
 */
export interface ExtensionCommand {
  /** Lowercase, `[a-z][a-z0-9_-]*`, not a builtin command's name. */
  readonly name: string;
  /** Shown by /help, e.g. `/weather <city>`. */
  readonly usage: string;
  readonly description: string;
  readonly adminOnly: boolean;
  /** Answer only the sender where the platform can (a Discord or Slack command's ephemeral reply). */
  readonly ephemeral?: boolean;
  /**
   * The change to the chat's shared session these words make (e.g. `plan` for `/plan` and `/plan off`), if any: in a
   * group only admins make it, or members the group grants it (`membersMay`); anyone else is refused before `run`.
   */
  sessionChange?(args: readonly string[]): SessionChange | undefined;
  /**
   * Run where the session's turns run: in a cluster the gateway carries the command to the instance owning the
   * session (for state an extension keeps in that instance's memory) and answers with its result.
   */
  readonly atOwner?: boolean;
  run(context: ExtensionCommandContext): Promise<string | ExtensionReply>;
}

/**
 * A section of `/agents` (admins only): rendered under the fleet; `/agents <name> <args…>` (typed or pressed as a
 * button) goes to `act`. Contract: `render` resolves with Markdown lines; a throw shows one line saying the section
 * failed, the rest of `/agents` still shows.
 */
export interface AgentsSection {
  /** Lowercase, `[a-z][a-z0-9_-]*`, not one of /agents' own actions (info, sessions, kill, goal). */
  readonly name: string;
  render(context: { readonly now: number }): Promise<string | ExtensionReply>;
  act?(args: readonly string[], context: ExtensionCommandContext): Promise<string | ExtensionReply>;
}

/** A `/word` an agent answers itself (e.g. a skill's name): it reaches the agent's turn as text. */
export interface AgentCommand {
  readonly name: string;
  readonly description: string;
}

/** A turn about to make its first model call. */
export interface TurnAboutToStart {
  readonly sessionKey: string;
  readonly agentId: string;
  /** The text of the messages the turn answers, oldest first (commands and goal prompts included). */
  readonly texts: readonly string[];
  /** The lowest trust tier among the turn's senders. */
  readonly trust: TrustTier;
  /** The platform message the turn answers (the last one it takes), when it answers one. */
  readonly replyToMessageId?: string;
  /** Who sent the last message the turn takes (their platform id), when a person did. */
  readonly senderId?: string;
}

/** What a before-turn hook adds: text appended to the turn's system prompt (undefined: nothing). */
export interface BeforeTurnResult {
  readonly systemPromptAddition?: string;
}

/** A turn that ended and was stored (`outcome` `not-started`: it could not start; nothing was stored of it). */
export interface TurnCommitted {
  readonly sessionKey: string;
  readonly agentId: string;
  readonly outcome: "completed" | "aborted" | "failed" | "not-started";
  /** How many queued messages the turn took (0 for a turn that took none, e.g. a dropped item). */
  readonly answered: number;
  /** The queued messages the turn took (a schedule's or a goal's prompt among them). */
  readonly items: readonly LaneItem[];
  /** How the run ended (its messages, error, reason); undefined when it could not start. */
  readonly result: AgentRunResult | undefined;
  /** Where the session's replies go. */
  readonly chat: SessionChat;
}

/** A turn that started on queued messages (its run is registered; its first model call has not been made). */
export interface TurnStarted {
  readonly sessionKey: string;
  readonly agentId: string;
  readonly items: readonly LaneItem[];
}

/** What an extension may do to sessions' lanes and turns (at the instance where the session's turns run). */
export interface ExtensionSessions {
  /** Queues a message already stored in the session's transcript (at `seq`) in its lane; a turn answers it. */
  accept(session: SessionRecord, item: LaneItem & { readonly seq: number }): void;
  /** Stops the session's running turn, if any. */
  stopTurn(sessionKey: string, reason: string): void;
  /** Takes the waiting messages `which` picks out of the session's lane; resolves with how many. */
  withdraw(sessionKey: string, which: (item: LaneItem) => boolean): number;
  /** Starts the session afresh (as `/new` does, for nobody in particular: no extension may refuse it). */
  startFresh(sessionKey: string): Promise<void>;
}

/** A call an extension makes at a session's owner (`ExtensionStartContext.atOwner`), answered by its `answerAtOwner`. */
export interface OwnerCall {
  readonly name: string;
  /** JSON-serialisable: it crosses instances in a cluster. */
  readonly payload: unknown;
}

/** A session's chat, as an extension may use it. */
export interface SessionChats {
  /** Posts `text` in the session's chat, with `buttons` where its platform shows them. Unknown session: nothing. */
  post(sessionKey: string, text: string, buttons?: readonly OutboundButton[]): Promise<void>;
  /** Whether the session's chat shows buttons (false for an unknown session). */
  hasButtons(sessionKey: string): Promise<boolean>;
  /**
   * Sends files to the session's chat through the outbox (exactly once, like a reply), `text` first when not empty.
   * Contract: resolves once queued (with the outbox entry's id; undefined for an unknown session); the files must stay
   * readable at their paths until the entry is sent.
   */
  sendFiles(sessionKey: string, files: readonly OutboxFile[], text?: string): Promise<number | undefined>;
  /** The largest file the session's chat takes (its channel's `maxUploadBytes`); undefined when it takes none. */
  maxUploadBytes(sessionKey: string): Promise<number | undefined>;
}

/** A change of which sessions this gateway instance owns (in a cluster; `ExtensionStartContext.owns` says which now). */
export interface OwnershipChange {
  /**
   * `gained`: sessions were taken over here (their interrupted work settled, their stored messages taken up); `lost`:
   * sessions went to another instance (start nothing more for them here).
   */
  readonly type: "gained" | "lost";
}

/** The session `/status` is about (at the instance where its turns run): its key, agent and stored settings. */
export type StatusSession = Omit<SessionAgentStart, "model">;

/** What an extension gets at start. */
export interface ExtensionStartContext {
  /** Sessions' chats, to post in (a notice, a question with buttons). */
  readonly chats: SessionChats;
  /** The gateway's validated configuration (agents with their settings, bindings, channels). */
  readonly config: GatewayConfig;
  /** Sessions' lanes and turns. */
  readonly sessions: ExtensionSessions;
  /** Whether a channel account runs in this gateway. */
  channelRunning(channel: string, accountId: string): boolean;
  /**
   * Downloads an attachment a person sent, through the channel account that received it (its credentials, its
   * hosts). Contract: rejects with AttachmentFetchError (`unsupported` when that channel downloads no files,
   * `network` when it does not run here).
   */
  fetchAttachment(source: AttachmentSource, options: FetchAttachmentOptions): Promise<FetchedAttachment>;
  /** The model a session's turns use now: its `/model` choice (when its agent still allows it), else its agent's. */
  sessionModel(session: SessionRecord): Model;
  /**
   * Runs `call` where the session's turns run: here (no cluster, or this instance owns it), else at its owner (the
   * same extension's `answerAtOwner` there). Resolves with its answer, or `{ told }` with a sentence when no owner
   * answered in time (nothing was done) or the owner fell silent while at it.
   */
  atOwner(sessionKey: string, call: OwnerCall): Promise<{ readonly answer: unknown } | { readonly told: string }>;
  /** The gateway's session store (sessions, their settings and transcripts). */
  readonly store: SessionStore;
  /**
   * The gateway's model calls, inside every budget: a call whose options carry `sessionId` (a session key) and
   * `purpose` (e.g. `memory`) is reserved against that session's agent first and booked under that kind.
   */
  readonly streamFn: StreamFn;
  /** A model the gateway's catalog knows, by id. */
  findModel(id: string): Model | undefined;
  /**
   * Whether the turns of a session run at this instance: always true for a gateway alone on its store; in a cluster,
   * whether this instance owns the session now (see `ownershipChanged`).
   */
  owns(sessionKey: string): boolean;
  /** Registers background work: the gateway's `idle()` waits for it, and a rejection is logged. */
  track(work: Promise<unknown>): void;
  /** The gateway's clock (epoch ms). */
  now(): number;
  /** The gateway's logger, for the extension's own lines. */
  readonly logger: {
    info(fields: Record<string, unknown>, message: string): void;
    warn(fields: Record<string, unknown>, message: string): void;
    error(fields: Record<string, unknown>, message: string): void;
  };
}

/**
 * A feature that plugs into the gateway: what it adds, registered once at construction. Every part is optional.
 * Contract: a throwing hook is logged and skipped — the message is still answered and the gateway keeps running; a
 * command or section that throws is answered with a failure sentence. Hooks of several extensions run in the order
 * the extensions were given; stream wrappers nest in that order (the first given is the outermost).
 *
 * @example
 * const weather: GatewayExtension = {
 *   name: "weather",
 *   commands: [{ name: "weather", usage: "/weather <city>", description: "today's weather", adminOnly: false,
 *     run: async ({ args }) => `Sunny in ${args.join(" ")}.` }],
 * };
 * new Gateway({ ...options, extensions: [weather] });
 */
export interface GatewayExtension {
  /** Names the extension in logs and errors. */
  readonly name: string;
  readonly commands?: readonly ExtensionCommand[];
  /**
   * Who may use each of its commands and buttons, in a DM and in a group (rows of the bot's table in docs/security.md,
   * `commandPermissionsOf`); each row's examples are what a test walks as a guest in a group.
   */
  readonly commandPermissions?: readonly CommandPermission[];
  readonly agentsSections?: readonly AgentsSection[];
  /** Tools offered to an agent's turns (with its own); its trust-tier policy still gates each call. */
  toolsFor?(agentId: string): readonly AnyAgentTool[];
  /**
   * Call-time policies on an agent's own tool calls, checked before its trust-tier gate (a deny's reason reaches the
   * model); its sub-agents' calls are not given to them.
   */
  policiesFor?(agentId: string): readonly PreDispatchPolicy[];
  /**
   * A fixed addition to an agent's system prompt, appended to it once when the gateway prepares the agent (so it stays
   * in the prompt's cached prefix; `beforeTurn` is for what changes per turn).
   */
  agentPrompt?(agentId: string): string | undefined;
  /**
   * `/words` the agent answers itself: they pass the command parser to its turn as text (the agent's
   * `unknownCommands` setting never drops them), and a misspelt one is answered with the right name.
   */
  agentCommands?(agentId: string): readonly AgentCommand[];
  /**
   * The tools one turn of a session is offered, from those the agent has (e.g. without memory's tools while the
   * session turned memory off); undefined keeps them. Called before each turn, after `beforeTurn`.
   */
  sessionTools?(sessionKey: string, tools: readonly AnyAgentTool[]): readonly AnyAgentTool[] | undefined;
  /**
   * Writes to join the commit of a session's turn, given the messages it stores (e.g. the facts a `remember` call
   * held until its result is stored): inside the commit's transaction where the store lets them, right after it
   * otherwise. Contract: exactly one of its `committed` or `failed` is called per commit that carried them.
   */
  commitWrites?(sessionKey: string, messages: readonly AgentMessage[]): CommitSideWrites | undefined;
  /**
   * What the extension adds to a session's Agent when the gateway builds it (context settings, reminders, tools, an
   * event listener), e.g. a summary kept per session; undefined adds nothing. Kept state goes in the session's settings.
   */
  sessionAgent?(session: SessionAgentStart): SessionAgentParts | undefined;
  /** Lines of its own in `/status` (e.g. a session's subgoal), after the gateway's; a throw is logged and shows none. */
  statusLines?(session: StatusSession): readonly string[] | Promise<readonly string[]>;
  /** Wraps every model call the gateway makes (turns, sub-agents, side calls), inside the budget reservation. */
  wrapStreamFn?(next: StreamFn): StreamFn;
  /**
   * Rewrites the agent's own system prompt for a session's next turn (e.g. `{current_goal}`), before `beforeTurn`'s
   * additions; undefined keeps it.
   */
  systemPrompt?(
    session: { readonly sessionKey: string; readonly agentId: string },
    prompt: string | undefined,
  ): Promise<string | undefined> | string | undefined;
  /** A turn started (its run is registered), before its first model call. Synchronous: it must not throw. */
  turnStarted?(turn: TurnStarted): void;
  /** Before a turn's first model call. */
  beforeTurn?(turn: TurnAboutToStart): Promise<BeforeTurnResult | undefined> | BeforeTurnResult | undefined;
  /** After a turn ended and was stored. */
  afterTurn?(turn: TurnCommitted): void | Promise<void>;
  /**
   * Whether `actor` may end or stop what runs in the session on its own (e.g. an autonomous goal someone else
   * started): a refusal sentence, or undefined. `/new` is then refused with it; `/stop` stops only the actor's own.
   */
  endRefusal?(sessionKey: string, actor: SessionActor): Promise<string | undefined>;
  /** `/stop` in the session (its run and queue are stopped): resolves with whether the extension stopped something. */
  sessionStopped?(sessionKey: string): Promise<boolean>;
  /**
   * The session starts afresh (`/new`, a schedule's fresh start): awaited before its transcript is cleared, so the
   * hook may still read it.
   */
  sessionEnding?(session: { readonly sessionKey: string; readonly agentId: string }): void | Promise<void>;
  /**
   * In a cluster, this instance gained or lost sessions (e.g. to resume or let go of work kept per session). Called
   * once per change, after the gateway's own takeover work; never for a gateway alone on its store.
   */
  ownershipChanged?(change: OwnershipChange): void | Promise<void>;
  /** A session has had no work for the gateway's idle time (its Agent is let go). */
  sessionIdle?(session: { readonly sessionKey: string; readonly agentId: string }): void | Promise<void>;
  /** A sub-agent's session ended with its one run, that end stored (never for a crash's cut: a takeover re-runs it). */
  subagentEnded?(session: { readonly sessionKey: string; readonly agentId: string }): void | Promise<void>;
  /** With the gateway's start, before its channels take messages. A throw fails the start. */
  start?(context: ExtensionStartContext): Promise<void> | void;
  /**
   * After the gateway started: its channels take messages and restart recovery is done (e.g. resume work the last
   * run left). A throw is logged.
   */
  started?(): Promise<void> | void;
  /** Restart recovery leaves this session to the extension (it resumes it itself, with its own notice). */
  resumesItself?(session: SessionRecord): boolean;
  /** Answers an `atOwner` call of this extension (at the session's owner). */
  answerAtOwner?(call: OwnerCall): Promise<unknown>;
  /**
   * The gateway begins to stop (it takes no more messages): end or abort background work now, so that the running
   * turns' wait (`idle()`) is not held up by it. Before the turns are waited for; `stop` comes later.
   */
  stopping?(): void | Promise<void>;
  /** While stopping: the running turns are over (finished or stopped) and the lanes cleared. */
  turnsOver?(): void;
  /** With the gateway's stop, after its channels stopped, in reverse order. A throw is logged. */
  stop?(): Promise<void> | void;
}
