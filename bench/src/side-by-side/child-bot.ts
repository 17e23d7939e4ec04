import { type ChildProcess, spawn } from "node:child_process";

const STOP_TIMEOUT_MS = 20_000;
const OUTPUT_TAIL_LINES = 40;

/** Every child started and not yet reaped, so an error or Ctrl-C still kills them all. */
const running = new Set<ChildProcess>();
let exitHooked = false;

function hookExit(): void {
  if (exitHooked) return;
  exitHooked = true;
  process.on("exit", () => {
    for (const child of running) child.kill("SIGKILL");
  });
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      for (const child of running) child.kill("SIGKILL");
      process.exit(130);
    });
  }
}

/** A bot running as its own process: its pid (for its CPU time), its output and a way to stop it. */
export interface ChildBot {
  readonly pid: number;
  /** The last lines it wrote (stdout and stderr), for error messages. */
  tail(): string;
  /** Resolves with the first output line matching `pattern`; rejects after `timeoutMs` or if the process exits. */
  waitForLine(pattern: RegExp, timeoutMs: number): Promise<string>;
  /** SIGTERM, then SIGKILL after 20 s. Contract: resolves once the process is gone; never throws. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Starts `node <args>` with exactly `env` (plus PATH) and keeps the last lines of its output.
 * Contract: the child is killed when this process exits, also on SIGINT/SIGTERM or an uncaught error.
 */
export function startChildBot(args: readonly string[], env: Record<string, string>, cwd?: string): ChildBot {
  hookExit();
  const child = spawn(process.execPath, [...args], {
    cwd,
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  const lines: string[] = [];
  const waiters = new Set<{ pattern: RegExp; resolve: (line: string) => void }>();
  const onLine = (line: string): void => {
    lines.push(line);
    if (lines.length > OUTPUT_TAIL_LINES) lines.shift();
    for (const waiter of waiters) {
      if (waiter.pattern.test(line)) {
        waiters.delete(waiter);
        waiter.resolve(line);
      }
    }
  };
  for (const stream of [child.stdout, child.stderr]) {
    let partial = "";
    stream?.setEncoding("utf8");
    stream?.on("data", (chunk: string) => {
      const parts = (partial + chunk).split("\n");
      partial = parts.pop() ?? "";
      for (const line of parts) onLine(line);
    });
  }
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once("exit", (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    });
    child.once("error", () => {
      running.delete(child);
      resolve({ code: null, signal: null });
    });
  });
  const tail = (): string => lines.join("\n");
  return {
    pid: child.pid ?? -1,
    tail,
    waitForLine: (pattern, timeoutMs) => {
      const seen = lines.find((line) => pattern.test(line));
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise<string>((resolve, reject) => {
        const waiter = {
          pattern,
          resolve: (line: string) => {
            clearTimeout(timer);
            resolve(line);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`no line matching ${pattern} within ${timeoutMs} ms; last output:\n${tail()}`));
        }, timeoutMs);
        waiters.add(waiter);
        void exited.then(({ code, signal }) => {
          if (!waiters.delete(waiter)) return;
          clearTimeout(timer);
          reject(new Error(`the process exited (code ${code}, signal ${signal}) before ${pattern}:\n${tail()}`));
        });
      });
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), STOP_TIMEOUT_MS);
      const result = await exited;
      clearTimeout(timer);
      return result;
    },
  };
}
