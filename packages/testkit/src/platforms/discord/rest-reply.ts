import type { MultipartPart } from "../shared/multipart-body.js";
import type { DiscordBotAccount, DiscordChannel } from "./discord-types.js";
import type { DiscordWorld } from "./discord-world.js";

/** What a REST handler answers: a status and an optional JSON body. */
export interface RestReply {
  readonly status: number;
  readonly body?: unknown;
}

/** Inputs of one REST call. */
export interface RestContext {
  readonly world: DiscordWorld;
  /** Authenticated bot, or `undefined` for token-authenticated routes (interactions, webhooks). */
  readonly bot: DiscordBotAccount | undefined;
  readonly params: Record<string, string>;
  readonly query: URLSearchParams;
  readonly body: Record<string, unknown>;
  /** The parsed body as sent (an array for bulk command overwrites). */
  readonly rawBody: unknown;
  /** The file parts of a multipart call (`files[n]`), whose `payload_json` is `body`. */
  readonly files?: readonly MultipartPart[];
  readonly gatewayUrl: string;
  /** Whether bot-sent messages are echoed as gateway MESSAGE_CREATE/UPDATE. */
  readonly echo: boolean;
}

/** One REST route implementation. */
export type RestHandler = (ctx: RestContext) => RestReply;

/** A JSON error answer, shaped like Discord's. */
export const error = (status: number, code: number, message: string, errors?: unknown): RestReply => ({
  status,
  body: errors === undefined ? { message, code } : { message, code, errors },
});
/** 204 No Content. */
export const noContent: RestReply = { status: 204 };

/** The authenticated bot; routes in `botRoutes` always have one. */
export function requireBot(ctx: RestContext): DiscordBotAccount {
  if (!ctx.bot) throw new Error("route requires an authenticated bot");
  return ctx.bot;
}

/** Discord's answer for a channel id it does not know. */
export const unknownChannel = error(404, 10003, "Unknown Channel");

/** The channel named by the `:channelId` path parameter. */
export function channelOf(ctx: RestContext): DiscordChannel | undefined {
  return ctx.world.channels.get(ctx.params.channelId ?? "");
}
