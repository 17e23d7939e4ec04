/**
 * The moments a hook can run at (seed 003 steps 9, 10, 16, "Pre- and post-tool hooks" and "Session end"). The loop
 * runs all but `session_end`, which the app running sessions fires (the gateway: a session let go when idle, or
 * cleared by `/new`).
 */
export type HookEventName =
  | "turn_start"
  | "pre_compact"
  | "pre_prompt"
  | "pre_tool_use"
  | "post_tool_use"
  | "session_end";

/**
 * Why a session ended (seed 003 "Session end"): `idle` — it had no work for the app's idle time and was let go;
 * `cleared` — it starts afresh (`/new`, a schedule's fresh start) while its transcript is still there;
 * `run_ended` — a session that lives one run (a sub-agent's) ended with it: completed, failed, out of turns, or
 * stopped (not a crash's interruption, after which the run may be run again).
 */
export type SessionEndReason = "idle" | "cleared" | "run_ended";

/** What a hook is told; shell hooks get it as JSON on stdin. */
export type HookEvent =
  | { event: "turn_start"; runId: string; sessionId?: string | undefined; turn: number }
  | { event: "pre_compact"; runId: string; sessionId?: string | undefined; turn: number; messageCount: number }
  | { event: "pre_prompt"; runId: string; sessionId?: string | undefined; turn: number; messageCount: number }
  | {
      event: "pre_tool_use";
      runId: string;
      sessionId?: string | undefined;
      turn: number;
      toolName: string;
      toolCallId: string;
      args: unknown;
    }
  | {
      event: "post_tool_use";
      runId: string;
      sessionId?: string | undefined;
      toolName: string;
      toolCallId: string;
      args: unknown;
      isError: boolean;
      output: string;
    }
  | { event: "session_end"; sessionId: string; agent: string; reason: SessionEndReason };

/** A hook's answer. `block` matters at `turn_start` (the run stops) and `pre_tool_use` (the call is denied). */
export type HookOutcome = { kind: "continue" } | { kind: "block"; reason: string };

type MaybePromise<T> = T | Promise<T>;

/**
 * An in-process hook. Contract: `undefined` means continue; a throw or a rejection is a failure (it blocks where the
 * event can block, and is logged everywhere).
 */
export type AgentHook = (event: HookEvent, signal: AbortSignal) => MaybePromise<HookOutcome | undefined>;

/** Hooks by event; each list runs in order. Configure them as the operator: the model can never add one. */
export type AgentHooks = Partial<Record<HookEventName, AgentHook[]>>;
