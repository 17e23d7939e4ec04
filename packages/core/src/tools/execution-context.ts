import type { ToolRunInfo } from "./tool-types.js";

/**
 * Where a run's exec tools work (seed 002 "Per-Turn ExecutionContext"): the working directory and environment
 * overrides resolved once when the run starts. Contract: frozen — a directory change made during the run takes effect
 * in the next run's context; never serialised or persisted.
 */
export interface ExecutionContext {
  /** Working directory, as the tools that read it define it (the built-ins: relative to the workspace root). */
  readonly cwd: string;
  /** Environment variables added to (and overriding) the exec tools' own environment. */
  readonly env: Readonly<Record<string, string>>;
  /** The session the run belongs to, for audit correlation. */
  readonly sessionId?: string;
}

/** What `AgentLoopConfig.executionContext` returns: the context's fields, `env` optional. */
export interface ExecutionContextInit {
  cwd: string;
  env?: Record<string, string>;
}

/** Resolves the run's execution context at its start (e.g. from the session's current directory). */
export type ExecutionContextSource = (run: ToolRunInfo) => ExecutionContextInit;

/** Builds the frozen context of one run. Contract: later changes to `init` or its `env` do not reach it. */
export function freezeExecutionContext(init: ExecutionContextInit, run: ToolRunInfo): ExecutionContext {
  const env = Object.freeze({ ...init.env });
  const context: ExecutionContext =
    run.sessionId === undefined ? { cwd: init.cwd, env } : { cwd: init.cwd, env, sessionId: run.sessionId };
  return Object.freeze(context);
}
