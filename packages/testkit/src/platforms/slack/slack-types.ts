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

/** Fields of a slash command, as posted (HTTP) or carried in a `slash_commands` envelope. */
export type SlackSlashCommand = Record<string, string>;

/** How the fake signs one HTTP delivery; a way to test the bot's verification. */
export interface SlackSigningOverride {
  /** `invalid` sends a wrong `x-slack-signature`. */
  readonly signature?: "valid" | "invalid";
  /** Unix seconds for `x-slack-request-timestamp` (e.g. 10 minutes ago for a stale request). */
  readonly timestampSec?: number;
}
