import { randomBytes } from "node:crypto";
import type { SlackFile } from "./slack-files.js";
import type { SlackBotAccount } from "./slack-types.js";

/** A file a bot uploaded through `files.uploadV2` (getUploadURLExternal → POST to the URL → completeUploadExternal). */
export interface SlackSentFile {
  readonly fileId: string;
  readonly name: string;
  readonly title: string;
  /** The bytes posted to the upload URL, as they arrived. */
  readonly bytes: Uint8Array;
  /** Where it was shared (`channel_id` of the completion); absent for a file left private. */
  readonly channel?: string;
  readonly threadTs?: string;
  readonly initialComment?: string;
  /** The `ts` of the message that carries it, once shared (after `fileShareDelayMs`). */
  readonly ts?: string;
  /** The file object (`files[0]` of the completion; `shares` filled once shared). */
  readonly file: SlackFile & Record<string, unknown>;
}

/** An upload between `files.getUploadURLExternal` and `files.completeUploadExternal`. */
export interface PendingUpload {
  readonly fileId: string;
  readonly filename: string;
  readonly length: number;
  readonly account: SlackBotAccount;
  /** The secret part of the upload URL (`/upload/v1/<key>`). */
  readonly key: string;
  bytes?: Uint8Array;
}

/**
 * The uploads of the fake Slack: issued upload URLs, the bytes posted to them, and the files completed.
 * Contract: an upload URL takes one POST (its body raw, or a multipart form's file part, as the WebClient sends it);
 * Slack shares a completed file with its channel asynchronously, so with `shareDelayMs` > 0 the completion answers
 * before the message exists (`shares` empty) and `files.info` shows the share once it does.
 */
export class SlackUploads {
  /** How long after `files.completeUploadExternal` the file's message appears. Default 0: before it answers. */
  shareDelayMs = 0;
  readonly #pending = new Map<string, PendingUpload>();
  readonly #byKey = new Map<string, PendingUpload>();
  readonly #sent = new Map<string, SlackSentFile>();
  readonly #timers = new Set<NodeJS.Timeout>();
  #count = 0;

  /** Issues a file id and an upload URL path for one file. */
  issue(account: SlackBotAccount, filename: string, length: number): PendingUpload {
    const n = ++this.#count;
    const upload: PendingUpload = {
      fileId: `F0UPLD${String(n).padStart(4, "0")}${randomBytes(2).toString("hex").toUpperCase()}`,
      filename,
      length,
      account,
      key: randomBytes(12).toString("hex"),
    };
    this.#pending.set(upload.fileId, upload);
    this.#byKey.set(upload.key, upload);
    return upload;
  }

  /** Takes the bytes posted to an upload URL; false for a URL the fake never issued (or already completed). */
  receive(key: string, bytes: Uint8Array): boolean {
    const upload = this.#byKey.get(key);
    if (upload === undefined) return false;
    upload.bytes = bytes;
    return true;
  }

  /** An upload of this app whose bytes arrived, still pending; undefined otherwise. */
  ready(account: SlackBotAccount, fileId: string): (PendingUpload & { bytes: Uint8Array }) | undefined {
    const upload = this.#pending.get(fileId);
    if (upload?.bytes === undefined || upload.account.appId !== account.appId) return undefined;
    return upload as PendingUpload & { bytes: Uint8Array };
  }

  /** Ends a pending upload: its URL takes nothing more, and it cannot be completed again. */
  finish(fileId: string): void {
    const upload = this.#pending.get(fileId);
    if (upload === undefined) return;
    this.#pending.delete(fileId);
    this.#byKey.delete(upload.key);
  }

  record(sent: SlackSentFile): void {
    this.#sent.set(sent.fileId, sent);
  }

  /** A completed file by id. */
  get(fileId: string): SlackSentFile | undefined {
    return this.#sent.get(fileId);
  }

  sent(): SlackSentFile[] {
    return [...this.#sent.values()].map((sent) => ({ ...sent }));
  }

  /** Runs `share` now, or after `shareDelayMs` (unless the fake closes first). */
  later(share: () => void): void {
    if (this.shareDelayMs <= 0) {
      share();
      return;
    }
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      share();
    }, this.shareDelayMs);
    this.#timers.add(timer);
  }

  close(): void {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
  }
}
