import { spawn } from "node:child_process";
import type { AgentHook, AgentHooks, HookEventName, HookOutcome } from "@chorus/core";
import { killProcessGroup } from "../exec/process-group.js";
import { safeEnvironment } from "../exec/safe-environment.js";

/** One operator-configured shell hook. */
export interface ShellHookConfig {
  /** Run with `/bin/sh -c`. */
  command: string;
  /** Where it runs: a folder the agent's file tools cannot write (the bot runs it in its config file's folder). */
  cwd: string;
  /** Killed (with its process group) after this long; a timeout is a failure. Default 10 000 ms. */
  timeoutMs?: number;
  /**
   * Variables added to its environment, which is otherwise exec's scrubbed one (PATH, HOME, USER, LANG…): API keys
   * and bot tokens of the gateway's own environment never reach a hook unless listed here.
   */
  env?: Readonly<Record<string, string>>;
}

const DEFAULT_HOOK_TIMEOUT_MS = 10_000;
const MAX_STDERR_CHARS = 2_000;

/**
 * A shell command as an AgentHook: the event as JSON on stdin, exit 0 continues, any other exit blocks with its
 * stderr (or the exit code) as the reason, a timeout or a failed start blocks with what happened. It runs as the
 * gateway's user, in `cwd`, with exec's scrubbed environment plus `env`.
 * Contract: never rejects; where the event cannot block the loop only logs the outcome.
 */
export function shellHook(config: ShellHookConfig): AgentHook {
  const timeoutMs = config.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS;
  return (event, signal) =>
    new Promise<HookOutcome>((resolve) => {
      const child = spawn("/bin/sh", ["-c", config.command], {
        cwd: config.cwd,
        env: safeEnvironment(config.env),
        detached: true,
        stdio: ["pipe", "ignore", "pipe"],
      });
      let stderr = "";
      let failure: string | undefined;
      child.stderr?.on("data", (chunk: Buffer) => {
        if (stderr.length < MAX_STDERR_CHARS) stderr += chunk.toString("utf8");
      });
      const stop = (why: string): void => {
        failure ??= why;
        killProcessGroup(child);
      };
      const timer = setTimeout(() => stop(`hook timed out after ${timeoutMs} ms: ${config.command}`), timeoutMs);
      const onAbort = (): void => stop("hook aborted with its run");
      signal.addEventListener("abort", onAbort, { once: true });
      child.once("error", (error) => {
        failure ??= `hook failed to start: ${error.message}`;
      });
      child.stdin?.on("error", () => {
        // a hook that does not read its stdin is fine
      });
      child.stdin?.end(`${JSON.stringify(event)}\n`);
      child.once("close", (code) => {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        killProcessGroup(child);
        if (failure !== undefined) resolve({ kind: "block", reason: failure });
        else if (code === 0) resolve({ kind: "continue" });
        else {
          const said = stderr.trim().slice(0, MAX_STDERR_CHARS);
          resolve({ kind: "block", reason: said.length > 0 ? said : `hook exited with code ${code}` });
        }
      });
    });
}

/** The operator's hooks of one agent, as configured: shell commands by event. */
export type ShellHooksConfig = {
  [E in HookEventName]?:
    | { command: string; timeoutMs?: number | undefined; env?: Readonly<Record<string, string>> | undefined }[]
    | undefined;
};

/**
 * Builds AgentHooks from the operator's configuration, each running in `cwd` (a folder the agent's file tools cannot
 * write) with the scrubbed environment plus its own `env`.
 * Contract: pure; an empty configuration gives undefined.
 */
export function shellHooksOf(config: ShellHooksConfig | undefined, cwd: string): AgentHooks | undefined {
  if (config === undefined) return undefined;
  const hooks: AgentHooks = {};
  let any = false;
  for (const [event, entries] of Object.entries(config) as [HookEventName, ShellHooksConfig[HookEventName]][]) {
    if (!entries || entries.length === 0) continue;
    hooks[event] = entries.map((entry) =>
      shellHook({
        command: entry.command,
        cwd,
        ...(entry.timeoutMs === undefined ? {} : { timeoutMs: entry.timeoutMs }),
        ...(entry.env === undefined ? {} : { env: entry.env }),
      }),
    );
    any = true;
  }
  return any ? hooks : undefined;
}
