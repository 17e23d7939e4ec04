import {
  AttachmentFetchError,
  type AttachmentKind,
  type AttachmentLocation,
  type FetchAttachmentOptions,
  type FetchedAttachment,
  type InboundAttachment,
} from "@chorus/gateway";
import type { UploadMeta, WebchatFileStore } from "./webchat-file-store.js";
import type { WebchatFile } from "./webchat-protocol.js";

/** A message named an upload its browser may not attach (unknown, another browser's, or already sent). */
export class UploadNotAttachableError extends Error {
  override readonly name = "UploadNotAttachableError";
}

/** The files of one inbound message: for the sink, and as the page shows them. */
export interface AttachedFiles {
  readonly attachments: readonly InboundAttachment[];
  readonly shown: readonly WebchatFile[];
}

/**
 * The uploads browsers attach to their messages, and their bytes for the gateway.
 * Contract: a browser attaches only its own uploads, each to one message only; `fetch` serves an upload only for the
 * chat and message it was attached to (anything else is `not-found`, like a file another instance holds).
 */
export class WebchatAttachments {
  readonly #store: WebchatFileStore;
  /** Uploads being attached right now (two tabs of one browser sending the same upload at once). */
  readonly #claiming = new Set<string>();

  constructor(store: WebchatFileStore) {
    this.#store = store;
  }

  /**
   * Attaches uploads `ids` of browser `owner` to a message. Contract: all or none — rejects with
   * UploadNotAttachableError when any id is not an unsent upload of `owner`, and then attaches nothing.
   */
  async attach(ids: readonly string[], owner: string, chatId: string, messageId: string): Promise<AttachedFiles> {
    const unique = [...new Set(ids)];
    if (unique.some((id) => this.#claiming.has(id))) throw new UploadNotAttachableError("that file is being sent");
    for (const id of unique) this.#claiming.add(id);
    try {
      const metas: { id: string; meta: UploadMeta }[] = [];
      for (const id of unique) {
        const meta = await this.#store.meta(id);
        if (meta?.kind !== "upload" || meta.owner !== owner || meta.attached !== undefined) {
          throw new UploadNotAttachableError("a file of this message is not one this browser uploaded (or was sent)");
        }
        metas.push({ id, meta });
      }
      for (const { id, meta } of metas) await this.#store.update(id, { ...meta, attached: { chatId, messageId } });
      return {
        attachments: metas.map(({ id, meta }) => inboundAttachment(id, meta)),
        shown: metas.map(({ id, meta }) => ({
          id,
          name: meta.name,
          sizeBytes: meta.sizeBytes,
          ...(meta.mimeType === undefined ? {} : { mimeType: meta.mimeType }),
        })),
      };
    } finally {
      for (const id of unique) this.#claiming.delete(id);
    }
  }

  /** The bytes of an attached upload (`Channel.fetchAttachment`). */
  async fetch(location: AttachmentLocation, options: FetchAttachmentOptions): Promise<FetchedAttachment> {
    options.signal?.throwIfAborted();
    const meta = await this.#store.meta(location.id);
    const attached = meta?.kind === "upload" ? meta.attached : undefined;
    if (attached === undefined || attached.chatId !== location.chatId || attached.messageId !== location.messageId) {
      throw new AttachmentFetchError(
        "not-found",
        `webchat: no file ${location.id} in message ${location.messageId} here (a file stays on the instance that took it)`,
      );
    }
    const bytes = await this.#store.read(location.id, options.maxBytes);
    if (bytes === "too-large") {
      throw new AttachmentFetchError(
        "too-large",
        `webchat: file ${location.id} is larger than ${options.maxBytes} bytes`,
      );
    }
    if (bytes === "missing") throw new AttachmentFetchError("not-found", `webchat: file ${location.id} is gone`);
    return { bytes, ...(meta?.mimeType === undefined ? {} : { mimeType: meta.mimeType }) };
  }
}

function inboundAttachment(id: string, meta: UploadMeta): InboundAttachment {
  return {
    id,
    name: meta.name,
    sizeBytes: meta.sizeBytes,
    ...(meta.mimeType === undefined ? {} : { mimeType: meta.mimeType, kind: kindOf(meta.mimeType) }),
  };
}

function kindOf(mimeType: string): AttachmentKind {
  const [family] = mimeType.split("/");
  if (family === "image" || family === "audio" || family === "video") return family;
  return "document";
}
