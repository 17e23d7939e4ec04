import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ChildOptions } from "./telegram-gateway-child.js";

const here = fileURLToPath(new URL("./", import.meta.url));

/** One line the child printed. */
export type ChildLine = { type: string; text?: string; chatId?: string; messageId?: string; eventId?: string };

/** A Gateway with a Telegram channel running in a child process (`telegram-gateway-child.ts`). */
export interface GatewayChild {
  /** Every line printed so far, in order. */
  readonly lines: ChildLine[];
  /** Resolves with the first line (already printed or still to come) that matches. */
  waitFor(match: (line: ChildLine) => boolean, what: string): Promise<ChildLine>;
  /** SIGKILL, resolved once the process is gone. */
  kill(): Promise<void>;
}

const children = new Set<ChildProcess>();
const dirs: string[] = [];

/** A fresh folder for one test's database; removed by `cleanUpChildren`. */
export function freshDbPath(): string {
  const dir = mkdtempSync(join(tmpdir(), "chorus-telegram-crash-"));
  dirs.push(dir);
  return join(dir, "chorus.db");
}

/** Starts a child and resolves once its gateway has started (recovery done, the Telegram channel started). */
export async function startGatewayChild(options: ChildOptions): Promise<GatewayChild> {
  const child = spawn(
    process.execPath,
    [
      // @chorus/core's sources use parameter properties, which plain type stripping refuses.
      "--experimental-transform-types",
      "--no-warnings",
      "--import",
      join(here, "resolve-ts-specifiers.mjs"),
      join(here, "telegram-gateway-child.ts"),
      JSON.stringify(options),
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  children.add(child);
  const lines: ChildLine[] = [];
  const waiters: { match: (line: ChildLine) => boolean; resolve: (line: ChildLine) => void }[] = [];
  let stderr = "";
  let buffered = "";
  const exited = new Promise<string>((resolve) =>
    child.once("exit", (code, signal) => {
      children.delete(child);
      resolve(String(code ?? signal));
    }),
  );
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  child.stdout?.on("data", (chunk: Buffer) => {
    buffered += chunk.toString();
    const parts = buffered.split("\n");
    buffered = parts.pop() ?? "";
    for (const part of parts) {
      const line = JSON.parse(part) as ChildLine;
      lines.push(line);
      for (const waiter of [...waiters]) {
        if (!waiter.match(line)) continue;
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    }
  });
  const handle: GatewayChild = {
    lines,
    waitFor(match, what) {
      const seen = lines.find(match);
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        waiters.push({ match, resolve });
        void exited.then((how) => reject(new Error(`the child exited (${how}) before ${what}; stderr: ${stderr}`)));
      });
    },
    async kill() {
      child.kill("SIGKILL");
      await exited;
    },
  };
  await handle.waitFor((line) => line.type === "ready", "it was ready");
  return handle;
}

/** Kills every child still running and removes the databases. Call in `afterEach`. */
export async function cleanUpChildren(): Promise<void> {
  for (const child of children) child.kill("SIGKILL");
  await Promise.all([...children].map((child) => new Promise<void>((resolve) => child.once("exit", () => resolve()))));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}
