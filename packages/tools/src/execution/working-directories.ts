import type { ExecutionContextInit, ExecutionContextSource, ToolRunInfo } from "@chorus/core";

const NO_SESSION = "";
const DEFAULT_MAX_SESSIONS = 10_000;

/**
 * Each session's current working directory (workspace-relative, "." by default) and its environment overrides
 * (seed 002 "Per-Turn ExecutionContext"). State lives here; a run reads it once, at its start, through `source`, so a
 * change made during a turn takes effect in the next one.
 * @example const dirs = new WorkingDirectories(); new Agent({ ..., executionContext: dirs.source })
 */
export class WorkingDirectories {
  readonly #cwd = new Map<string, string>();
  readonly #env: Readonly<Record<string, string>>;
  readonly #maxSessions: number;

  /**
   * `env`: variables every session's exec calls get on top of the exec tool's own environment. `maxSessions`: sessions
   * remembered (default 10 000); the least recently changed one is dropped and starts at the root again.
   */
  constructor(options: { env?: Record<string, string>; maxSessions?: number } = {}) {
    this.#env = { ...options.env };
    this.#maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  }

  /** The session's current directory (workspace-relative). */
  get(sessionId: string | undefined): string {
    return this.#cwd.get(sessionId ?? NO_SESSION) ?? ".";
  }

  /** Sets the session's directory for its next turn. */
  set(sessionId: string | undefined, dir: string): void {
    const key = sessionId ?? NO_SESSION;
    this.#cwd.delete(key);
    this.#cwd.set(key, dir);
    if (this.#cwd.size > this.#maxSessions) this.#cwd.delete(this.#cwd.keys().next().value as string);
  }

  /** Forgets a session (its next turn starts at the workspace root). */
  forget(sessionId: string): void {
    this.#cwd.delete(sessionId);
  }

  /** The loop's `executionContext`: the run's session directory and environment, as of now. */
  readonly source: ExecutionContextSource = (run: ToolRunInfo): ExecutionContextInit => ({
    cwd: this.get(run.sessionId),
    env: { ...this.#env },
  });
}
