import { createHash } from "node:crypto";

/** A file the fake Telegram holds, as `getFile` describes it. */
export interface TgFile {
  readonly file_id: string;
  readonly file_unique_id: string;
  readonly file_size: number;
  /** Where `/file/bot<token>/<file_path>` serves it. */
  readonly file_path: string;
}

/** The files people sent: `getFile` answers with their paths, and the file route serves their bytes. */
export class TelegramFiles {
  readonly #byId = new Map<string, { readonly file: TgFile; readonly bytes: Uint8Array }>();
  readonly #byPath = new Map<string, Uint8Array>();
  #count = 0;

  /** Keeps `bytes` under a new file id; `folder` and `extension` shape its path as Telegram's do (`photos/file_1.jpg`). */
  add(bytes: Uint8Array, folder: string, extension: string): TgFile {
    const n = ++this.#count;
    const hash = createHash("sha256").update(bytes).digest("hex").slice(0, 16);
    const file: TgFile = {
      file_id: `fake-file-${n}-${hash}`,
      file_unique_id: `u-${hash}`,
      file_size: bytes.byteLength,
      file_path: `${folder}/file_${n}.${extension}`,
    };
    this.#byId.set(file.file_id, { file, bytes });
    this.#byPath.set(file.file_path, bytes);
    return file;
  }

  /** The file with this id, as `getFile` answers; undefined for an id the fake never issued. */
  get(fileId: string): TgFile | undefined {
    return this.#byId.get(fileId)?.file;
  }

  /** The bytes at a file path; undefined for an unknown path. */
  bytesAt(path: string): Uint8Array | undefined {
    return this.#byPath.get(path);
  }
}
