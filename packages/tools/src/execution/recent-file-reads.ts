import type { RecentFile, RecentFilesSource, ToolRunInfo } from "@chorus/core";

const NO_SESSION = "";
const DEFAULT_KEEP = 20;
const DEFAULT_MAX_SESSIONS = 10_000;

interface ReadRecord {
  path: string;
  toolCallId: string;
  /** Reads the file's current content, as read_file shows it. */
  read: () => Promise<string>;
}

/**
 * The files each session read through read_file, most recent first (seed 004 "Context Restoration"). Give `source` to
 * the loop as `context.restoration.recentFiles`: after a summarising compaction it re-reads their current content.
 * @example const reads = new RecentFileReads(); createBuiltinTools({ workspaceRoot, recentReads: reads })
 */
export class RecentFileReads {
  readonly #bySession = new Map<string, ReadRecord[]>();
  readonly #keep: number;
  readonly #maxSessions: number;

  /** `keep`: reads remembered per session (default 20); `maxSessions`: sessions remembered, least recent dropped (10 000). */
  constructor(options: { keep?: number; maxSessions?: number } = {}) {
    this.#keep = options.keep ?? DEFAULT_KEEP;
    this.#maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  }

  /** Notes a successful read (a later read of the same path replaces it). */
  record(sessionId: string | undefined, entry: ReadRecord): void {
    const key = sessionId ?? NO_SESSION;
    const list = (this.#bySession.get(key) ?? []).filter((r) => r.path !== entry.path);
    list.unshift(entry);
    // Re-inserted, so the map's order is least recently read first.
    this.#bySession.delete(key);
    this.#bySession.set(key, list.slice(0, this.#keep));
    if (this.#bySession.size > this.#maxSessions) this.#bySession.delete(this.#bySession.keys().next().value as string);
  }

  /** Forgets a session's reads. */
  forget(sessionId: string): void {
    this.#bySession.delete(sessionId);
  }

  /** The loop's source: current content of the session's most recent reads; a file that can no longer be read is left out. */
  readonly source: RecentFilesSource = async (run: ToolRunInfo, limit: number): Promise<RecentFile[]> => {
    const records = (this.#bySession.get(run.sessionId ?? NO_SESSION) ?? []).slice(0, limit);
    const files = await Promise.all(
      records.map(async (r) => {
        try {
          return { path: r.path, content: await r.read(), toolCallId: r.toolCallId };
        } catch {
          return undefined;
        }
      }),
    );
    return files.filter((file) => file !== undefined);
  };
}
