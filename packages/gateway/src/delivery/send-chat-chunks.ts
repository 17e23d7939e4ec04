import type { Channel, OutboundMessage, SendTarget, SentMessage } from "@chorus/channel";
import { ChannelError, renderReplyChunks } from "@chorus/channel";
import type { ChatDeliveryPayload } from "./outbox-payloads.js";
import { sendChatFiles } from "./send-chat-files.js";

/** Appended to a reply sent again after a restart (its first send's outcome is unknown). */
export const RESENT_MARKER = "\n\n_(resent after restart)_";

/** One outbox entry's sending to its channel. */
export interface ChatChunksSend {
  readonly entryId: number;
  /** The reply is sent again after a restart: marked as such. */
  readonly resent: boolean;
  /** Platform ids of the chunks already sent by an earlier try (undefined: an edit-only chunk skipped); grows here. */
  readonly done: (string | undefined)[];
  /** A chunk reached the platform. */
  chunkArrived(): void;
}

/**
 * Renders the payload for the channel, splits it at the platform's limits and sends the chunks not sent yet (editing
 * the preview messages where it can, deleting the previews the final text no longer needs). Each chunk carries an
 * idempotency key, so a platform that has one sends it once. Contract: resolves with the platform ids of the chunks;
 * rejects with the channel's error, `done` keeping what went out.
 */
export async function sendChatChunks(
  channel: Channel,
  payload: ChatDeliveryPayload,
  send: ChatChunksSend,
): Promise<string[]> {
  const editIds = payload.editMessageIds ?? [];
  const resent = send.resent && editIds.length === 0;
  const files = payload.files ?? [];
  // A file-only entry has no text to send; its files carry the resent marker in their captions instead.
  const chunks =
    files.length > 0 && payload.text.trim() === ""
      ? []
      : renderReplyChunks(resent ? payload.text + RESENT_MARKER : payload.text, channel.capabilities);
  const { done } = send;
  for (let i = done.length; i < chunks.length; i++) {
    const text = chunks[i] as string;
    const editId = editIds[i];
    const buttons = i === chunks.length - 1 && channel.capabilities.buttons ? payload.buttons : undefined;
    const outbound = buttons === undefined || buttons.length === 0 ? { text } : { text, buttons };
    const edited =
      editId !== undefined &&
      (await tryEdit(channel, sentRef(payload.target, editId, payload.editSentAt?.[i]), outbound));
    if (edited) {
      done.push(editId);
      send.chunkArrived();
    } else if (payload.editOnly === true) done.push(undefined);
    else {
      const sent = await channel.send(i === 0 ? payload.target : withoutReply(payload.target), {
        ...outbound,
        idempotencyKey: `outbox:${send.entryId}:${i}`,
      });
      done.push(sent.messageId);
      send.chunkArrived();
    }
  }
  if (files.length > 0) {
    await sendChatFiles(channel, payload.target, files, {
      entryId: send.entryId,
      resent,
      done,
      offset: chunks.length,
      chunkArrived: () => send.chunkArrived(),
    });
  }
  // Preview messages the final text no longer needs.
  for (let i = chunks.length; i < editIds.length; i++) {
    if (channel.capabilities.delete && channel.delete) {
      await channel.delete(sentRef(payload.target, editIds[i] as string, payload.editSentAt?.[i])).catch(() => {});
    }
  }
  return done.filter((id) => id !== undefined);
}

async function tryEdit(channel: Channel, message: SentMessage, outbound: OutboundMessage): Promise<boolean> {
  if (!channel.capabilities.edit || channel.edit === undefined) return false;
  try {
    await channel.edit(message, outbound);
    return true;
  } catch (error) {
    // A preview that is gone or too old to edit is replaced by a new message; anything else is retried.
    if (error instanceof ChannelError && ["not-found", "forbidden", "edit-window-expired"].includes(error.kind)) {
      return false;
    }
    throw error;
  }
}

/** A message to edit or delete; an entry written before sent times were stored says 0 (unknown, i.e. oldest). */
function sentRef(target: SendTarget, messageId: string, sentAt: number | undefined): SentMessage {
  const ref = { messageId, chatId: target.chatId, sentAt: sentAt ?? 0 };
  return target.threadId === undefined ? ref : { ...ref, threadId: target.threadId };
}

function withoutReply(target: SendTarget): SendTarget {
  if (target.replyToMessageId === undefined) return target;
  const { replyToMessageId: _omit, ...rest } = target;
  return rest;
}
