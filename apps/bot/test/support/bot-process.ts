import { type ChildProcess, spawn } from "node:child_process";
import { BOT_MAIN } from "./build-bot.js";

/** A `chorus` CLI running as a child process, with its output collected line by line. */
export class BotProcess {
  readonly child: ChildProcess;
  readonly lines: string[] = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  readonly #waiters = new Set<() => void>();

  constructor(args: readonly string[], options: { cwd: string; env: NodeJS.ProcessEnv }) {
    // The toolchain's node (the one running the tests), exactly like `npm start`.
    this.child = spawn(process.execPath, [BOT_MAIN, ...args], { cwd: options.cwd, env: options.env, stdio: "pipe" });
    const collect = (chunk: Buffer): void => {
      this.lines.push(
        ...String(chunk)
          .split("\n")
          .filter((line) => line.length > 0),
      );
      for (const waiter of [...this.#waiters]) waiter();
    };
    this.child.stdout?.on("data", collect);
    this.child.stderr?.on("data", collect);
    this.exited = new Promise((resolve) => this.child.once("exit", (code, signal) => resolve({ code, signal })));
  }

  /** Resolves with the first output line matching; rejects if the process exits first. */
  waitForLine(pattern: RegExp): Promise<string> {
    return new Promise((resolve, reject) => {
      const check = (): void => {
        const line = this.lines.find((item) => pattern.test(item));
        if (line !== undefined) {
          this.#waiters.delete(check);
          resolve(line);
        }
      };
      this.#waiters.add(check);
      check();
      void this.exited.then(({ code }) => {
        if (this.#waiters.delete(check))
          reject(new Error(`bot exited (${code}) before printing ${pattern}:\n${this.lines.join("\n")}`));
      });
    });
  }

  /** Stops the process if still running (cleanup). */
  async kill(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      this.child.kill("SIGKILL");
      await this.exited;
    }
  }
}
