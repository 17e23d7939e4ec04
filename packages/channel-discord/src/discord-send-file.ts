import type { OutboundFile, SendTarget } from "@chorus/channel";
import { ChannelError } from "@chorus/channel";
import { discordSendBody } from "./discord-outbound.js";

/** Discord's upload limit for a bot in a server without boosts: 10 MiB a file. */
export const DISCORD_MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/** A message's content limit; a longer caption is cut to fit. */
const MAX_CONTENT = 2000;

/** What @discordjs/rest sends as a multipart `POST /channels/{id}/messages`: `payload_json` and `files[0]`. */
export interface DiscordFileRequest {
  readonly body: Record<string, unknown>;
  readonly files: [{ readonly name: string; readonly data: Uint8Array; readonly contentType: string }];
}

/**
 * The request that posts `file` as an attachment: the caption as the message's content (plain: Markdown characters
 * escaped), the reply reference, and the idempotency key as the enforced nonce, as for a text send.
 * Contract: pure; a file over DISCORD_MAX_UPLOAD_BYTES is refused with ChannelError "too-long" (before any request).
 */
export function discordFileRequest(target: SendTarget, file: OutboundFile): DiscordFileRequest {
  if (file.bytes.byteLength > DISCORD_MAX_UPLOAD_BYTES) {
    throw new ChannelError(
      "too-long",
      `discord sendFile: ${file.name} is ${file.bytes.byteLength} bytes, over Discord's ${DISCORD_MAX_UPLOAD_BYTES}`,
    );
  }
  const caption = fitContent(escapeMarkdown(file.caption ?? ""));
  const outbound =
    file.idempotencyKey === undefined ? { text: caption } : { text: caption, idempotencyKey: file.idempotencyKey };
  const body = { ...discordSendBody(target, outbound), attachments: [{ id: 0, filename: file.name }] };
  return { body, files: [{ name: file.name, data: file.bytes, contentType: file.mimeType }] };
}

/** Plain text as Discord shows it: Markdown's characters escaped, so the caption reads as written. */
function escapeMarkdown(text: string): string {
  return text.replace(/[\\*_~`|]/g, "\\$&").replace(/^(\s*)([>#-])/gm, "$1\\$2");
}

/** Cut to Discord's 2 000 characters, never inside a surrogate pair or after a lone escape, with an ellipsis. */
function fitContent(text: string): string {
  if (text.length <= MAX_CONTENT) return text;
  let cut = text.slice(0, MAX_CONTENT - 1);
  const last = cut.charCodeAt(cut.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut = cut.slice(0, -1);
  if (/(^|[^\\])(\\\\)*\\$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut}…`;
}
