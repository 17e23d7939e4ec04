import { readFile } from "node:fs/promises";
import type { Channel, SendTarget } from "@chorus/channel";
import { PermanentDeliveryError } from "./delivery-errors.js";
import type { OutboxFile } from "./outbox-payloads.js";

/** One entry's files going out after its text. */
export interface ChatFilesSend {
  readonly entryId: number;
  readonly resent: boolean;
  /** As in ChatChunksSend: what went out already, text chunks first; files are at `offset` onwards. */
  readonly done: (string | undefined)[];
  readonly offset: number;
  chunkArrived(): void;
}

/**
 * Uploads the files of an outbox entry not sent yet, each through the channel's own upload with its idempotency key
 * (`outbox:<id>:file:<n>`, so Discord refuses a repeat). Contract: rejects with the channel's error (retried by the
 * dispatcher, `done` keeping what went out) or PermanentDeliveryError when the chat takes no files, a file is over the
 * channel's limit, or the spooled file is gone.
 */
export async function sendChatFiles(
  channel: Channel,
  target: SendTarget,
  files: readonly OutboxFile[],
  send: ChatFilesSend,
): Promise<void> {
  if (channel.sendFile === undefined) throw new PermanentDeliveryError(`this ${channel.id} chat takes no files`);
  for (let i = send.done.length - send.offset; i < files.length; i++) {
    const file = files[i] as OutboxFile;
    const limit = channel.capabilities.maxUploadBytes;
    if (limit !== undefined && file.sizeBytes > limit) {
      throw new PermanentDeliveryError(`${file.name} is larger than ${channel.id} takes (${limit} bytes)`);
    }
    const bytes = await readFile(file.path).catch(() => {
      throw new PermanentDeliveryError(`${file.name} is no longer on this machine to be sent`);
    });
    // A file sent again after a restart may be a second copy (only Discord refuses a repeat): say so, as text does.
    const caption = send.resent ? `${file.caption ?? ""} (resent after restart)`.trim() : file.caption;
    const sent = await channel.sendFile(target, {
      bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      name: file.name,
      mimeType: file.mimeType,
      asPhoto: file.asPhoto,
      ...(caption === undefined ? {} : { caption }),
      idempotencyKey: `outbox:${send.entryId}:file:${i}`,
    });
    send.done.push(sent.messageId);
    send.chunkArrived();
  }
}
