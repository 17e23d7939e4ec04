import type { MultipartPart } from "../shared/multipart-body.js";
import type { DiscordAttachment } from "./discord-files.js";
import type { DiscordMessage } from "./discord-types.js";
import { error, type RestContext, type RestReply } from "./rest-reply.js";

/** A file a bot attached to a message it created: the bytes as they arrived and the attachment Discord made of it. */
export interface DiscordSentFile {
  readonly channelId: string;
  readonly messageId: string;
  readonly filename: string;
  readonly contentType: string;
  readonly bytes: Uint8Array;
  readonly attachment: DiscordAttachment;
}

/** Discord's upload limit for a bot in a server without boosts: 10 MiB a file. */
export const DISCORD_DEFAULT_UPLOAD_BYTES = 10 * 1024 * 1024;

interface PayloadAttachment {
  readonly id?: unknown;
  readonly filename?: unknown;
}

/**
 * Files bots upload with `POST /channels/:id/messages` (multipart: `payload_json` and `files[n]` parts, as
 * @discordjs/rest sends them): the limit they are held to and every one accepted.
 * Contract: a file over `maxBytes` refuses the whole message with 413, code 40005, as Discord does.
 */
export class DiscordUploads {
  /** The largest file accepted; the fake sets it from its options. */
  maxBytes = DISCORD_DEFAULT_UPLOAD_BYTES;
  readonly #sent: DiscordSentFile[] = [];

  /** The files accepted so far, oldest first. */
  sent(): DiscordSentFile[] {
    return [...this.#sent];
  }

  /** Discord's answer when a file of the call is over the limit; undefined when all fit. */
  refusal(files: readonly MultipartPart[] | undefined): RestReply | undefined {
    if (!(files ?? []).some((file) => file.data.byteLength > this.maxBytes)) return undefined;
    return error(413, 40005, "Request entity too large");
  }

  /**
   * The `attachments` of a message made from the call's file parts, each kept on the fake CDN: `files[n]` is named by
   * the payload's `attachments` entry with id n when it gives a filename, else by the part's own filename.
   */
  attach(ctx: RestContext, channelId: string): Partial<DiscordMessage> {
    const files = ctx.files ?? [];
    if (files.length === 0) return {};
    const described = Array.isArray(ctx.body.attachments) ? (ctx.body.attachments as PayloadAttachment[]) : [];
    const attachments = files.map((part, index) => {
      const n = /^files\[(\d+)\]$/.exec(part.name)?.[1] ?? String(index);
      const entry = described.find((a) => String(a.id) === n);
      const filename = typeof entry?.filename === "string" ? entry.filename : (part.filename ?? `file${n}`);
      const contentType = part.contentType ?? "application/octet-stream";
      return ctx.world.files.add(
        { bytes: new Uint8Array(part.data), filename, contentType },
        channelId,
        ctx.world.ids.next(),
      );
    });
    return { attachments };
  }

  /** Keeps each attachment of a created message with the bytes that made it. */
  record(ctx: RestContext, message: DiscordMessage): void {
    const files = ctx.files ?? [];
    (message.attachments as DiscordAttachment[]).forEach((attachment, index) => {
      const part = files[index];
      if (part === undefined) return;
      this.#sent.push({
        channelId: message.channel_id,
        messageId: message.id,
        filename: attachment.filename,
        contentType: attachment.content_type,
        bytes: new Uint8Array(part.data),
        attachment,
      });
    });
  }
}
