/** One Slack app with its bot user on the fake, keyed by its tokens. */
export interface SlackBotAccount {
  /** `xoxb-…` bot token for the Web API. */
  readonly botToken: string;
  /** `xapp-…` app-level token for `apps.connections.open` (Socket Mode). */
  readonly appToken: string;
  /** Secret the fake signs HTTP-mode requests with. */
  readonly signingSecret: string;
  readonly appId: string;
  readonly botId: string;
  readonly userId: string;
  readonly name: string;
}

/** A Slack message as the Web API returns it and events carry it. */
export interface SlackMessage {
  type: "message";
  channel: string;
  ts: string;
  text: string;
  user?: string;
  bot_id?: string;
  app_id?: string;
  thread_ts?: string;
  parent_user_id?: string;
  blocks?: unknown;
  edited?: { user: string; ts: string };
  [key: string]: unknown;
}

/** The outer `event_callback` body Slack delivers. */
export interface SlackEventBody {
  token: string;
  team_id: string;
  context_team_id: string;
  api_app_id: string;
  type: "event_callback";
  event_id: string;
  event_time: number;
  authorizations: Array<{
    enterprise_id: null;
    team_id: string;
    user_id: string;
    is_bot: boolean;
    is_enterprise_install: boolean;
  }>;
  is_ext_shared_channel: boolean;
  event_context: string;
  event: Record<string, unknown>;
}

/** One pressed element of a `block_actions` payload. */
export interface SlackBlockAction {
  readonly type: string;
  readonly action_id: string;
  readonly block_id: string;
  readonly action_ts: string;
  readonly value?: string;
  readonly text?: { readonly type: string; readonly text: string };
  readonly style?: string;
  readonly [key: string]: unknown;
}

/**
 * A `block_actions` interaction payload, as Slack sends it for a button press under a message: carried in an
 * `interactive` envelope (Socket Mode) or posted as the form field `payload` (HTTP mode).
 */
export interface SlackBlockActionPayload {
  readonly type: "block_actions";
  readonly user: { readonly id: string; readonly username: string; readonly name: string; readonly team_id: string };
  readonly api_app_id: string;
  readonly token: string;
  readonly container: {
    readonly type: "message";
    readonly message_ts: string;
    readonly channel_id: string;
    readonly is_ephemeral: boolean;
    readonly thread_ts?: string;
  };
  readonly trigger_id: string;
  readonly team: { readonly id: string; readonly domain: string };
  readonly enterprise: null;
  readonly is_enterprise_install: boolean;
  readonly channel: { readonly id: string; readonly name: string };
  /** The message the button is under, as it is at the press (with its blocks), without `channel`. */
  readonly message: {
    readonly type: "message";
    readonly ts: string;
    readonly text: string;
    readonly thread_ts?: string;
    readonly blocks?: unknown;
    readonly [key: string]: unknown;
  };
  readonly state: { readonly values: Record<string, unknown> };
  readonly response_url: string;
  readonly actions: readonly SlackBlockAction[];
}

/** Fields of a slash command, as posted (HTTP) or carried in a `slash_commands` envelope. */
export type SlackSlashCommand = Record<string, string>;

/** How the fake signs one HTTP delivery; a way to test the bot's verification. */
export interface SlackSigningOverride {
  /** `invalid` sends a wrong `x-slack-signature`. */
  readonly signature?: "valid" | "invalid";
  /** Unix seconds for `x-slack-request-timestamp` (e.g. 10 minutes ago for a stale request). */
  readonly timestampSec?: number;
}
