import { createHash } from "node:crypto";

/** A file a person shared in a message, as its `files` entry shows it. */
export interface SlackFile {
  readonly id: string;
  readonly name: string;
  readonly mimetype: string;
  readonly filetype: string;
  readonly size: number;
  /** Served only with an installed app's bot token (`Authorization: Bearer xoxb-…`). */
  readonly url_private: string;
  readonly url_private_download: string;
}

/** What a test shares: the bytes, a name and a type. */
export interface SharedFile {
  readonly bytes: Uint8Array;
  readonly name: string;
  readonly mimetype: string;
}

/** The files people shared: each message's `files` entries, and their bytes behind `url_private`. */
export class SlackFiles {
  readonly #bytes = new Map<string, SharedFile>();
  #count = 0;

  /** Keeps a shared file; its URLs are under `origin` (`/files-pri/<team>-<id>/<name>`). `fileId`: one already issued. */
  add(shared: SharedFile, origin: string, teamId: string, fileId?: string): SlackFile {
    const n = ++this.#count;
    const hash = createHash("sha256").update(shared.bytes).digest("hex").slice(0, 6).toUpperCase();
    const id = fileId ?? `F0FAKE${String(n).padStart(3, "0")}${hash}`;
    const path = `/files-pri/${teamId}-${id}/${encodeURIComponent(shared.name)}`;
    this.#bytes.set(path, shared);
    return {
      id,
      name: shared.name,
      mimetype: shared.mimetype,
      filetype: shared.name.includes(".") ? (shared.name.split(".").at(-1) ?? "") : "binary",
      size: shared.bytes.byteLength,
      url_private: `${origin}${path}`,
      url_private_download: `${origin}${path}?download=1`,
    };
  }

  /** The file at a `url_private` path; undefined for an unknown one. */
  at(path: string): SharedFile | undefined {
    return this.#bytes.get(path);
  }
}
