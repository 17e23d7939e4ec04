import type { AttachmentContent, Message, Model, UserContent } from "@chorus/core";
import type { ByteBudget } from "../cache/byte-budget.js";
import type { AgentMedia } from "../config/media-config.js";
import { tooManyFilesProblem } from "./attachment-problems.js";
import { type AttachmentReaderDeps, readAttachment, sourceKeyOf } from "./read-attachment.js";

/** A problem the chat should hear once: `key` names it across calls and restarts. */
export interface AttachmentProblem {
  readonly key: string;
  readonly sentence: string;
}

/** The messages with every attachment read, the problems met, and the memory they hold until the call ends. */
export interface ResolvedMessages {
  readonly messages: Message[];
  readonly problems: readonly AttachmentProblem[];
  /** Gives back the bytes reserved for them (call when the model call is over). */
  release(): void;
}

/** Whether any user message holds an attachment reference (a cheap check before each call). */
export function hasAttachments(messages: readonly Message[]): boolean {
  for (const message of messages) {
    if (message.role !== "user" || typeof message.content === "string") continue;
    for (const part of message.content) if (part.type === "attachment") return true;
  }
  return false;
}

/**
 * Replaces each attachment reference in `messages` by what the model reads of it (readAttachment), the first
 * `maxFilesPerMessage` of each message; later ones are listed as not read. Each file's bytes are reserved in `budget`
 * before it is read, so the process never holds more attachment bytes than the budget's cap.
 * Contract: never rejects; `messages` is not changed (new message objects where something was replaced).
 */
export async function resolveAttachments(
  messages: readonly Message[],
  model: Model,
  media: AgentMedia,
  deps: AttachmentReaderDeps & { readonly budget: ByteBudget },
): Promise<ResolvedMessages> {
  const problems: AttachmentProblem[] = [];
  // One reservation per call, taken before anything is read: a call never holds bytes while it waits for more, so
  // calls cannot deadlock each other on the budget.
  const release = await deps.budget.acquire(bytesToRead(messages, media));
  const out: Message[] = [];
  try {
    for (const message of messages) {
      if (message.role !== "user" || typeof message.content === "string" || !message.content.some(isAttachment)) {
        out.push(message);
        continue;
      }
      const content: UserContent[] = [];
      const skipped: AttachmentContent[] = [];
      let read = 0;
      for (const part of message.content) {
        if (!isAttachment(part)) {
          content.push(part);
          continue;
        }
        if (read >= media.limits.maxFilesPerMessage) {
          skipped.push(part);
          content.push({ type: "text", text: `[attachment: ${part.name} — not read: too many files in one message]` });
          continue;
        }
        read++;
        const reading = await readAttachment(part, media, model, deps);
        content.push(...reading.content);
        if (reading.problem !== undefined) {
          problems.push({ key: `${sourceKeyOf(part.source)}:${reading.problem}`, sentence: reading.problem });
        }
      }
      const first = skipped[0];
      if (first !== undefined) {
        problems.push({
          key: `${sourceKeyOf(first.source)}:too-many`,
          sentence: tooManyFilesProblem(
            skipped.map((part) => part.name),
            media.limits.maxFilesPerMessage,
          ),
        });
      }
      out.push({ ...message, content });
    }
  } catch (error) {
    release();
    throw error;
  }
  return { messages: out, problems, release };
}

/** The most bytes reading the messages' attachments may hold: each file's declared size, else the per-file limit. */
function bytesToRead(messages: readonly Message[], media: AgentMedia): number {
  const { maxFileBytes, maxFilesPerMessage } = media.limits;
  let total = 0;
  for (const message of messages) {
    if (message.role !== "user" || typeof message.content === "string") continue;
    const files = message.content.filter(isAttachment).slice(0, maxFilesPerMessage);
    for (const file of files) {
      const size = file.sizeBytes ?? maxFileBytes;
      if (size <= maxFileBytes) total += size;
    }
  }
  return total;
}

function isAttachment(part: UserContent): part is AttachmentContent {
  return part.type === "attachment";
}
