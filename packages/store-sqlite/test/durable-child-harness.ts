import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { InjectedMessage } from "@chorus/gateway";
import { SqliteMemoryStore } from "@chorus/memory";
import { CHILD_PROCESS_ENV } from "./fixtures/child-process-env.js";
import type { ChildOptions } from "./fixtures/durable-gateway-child.js";

const fixtures = fileURLToPath(new URL("./fixtures/", import.meta.url));

/** One line the child printed. */
export type ChildLine = {
  type: string;
  text?: string;
  chatId?: string;
  messageId?: string;
  eventId?: string;
  sideWritten?: boolean;
  /** `span` lines: the span's name and ids, and its links' ids and attributes. */
  name?: string;
  traceId?: string;
  spanId?: string;
  parentSpanId?: string;
  links?: { traceId: string; spanId: string; attributes?: Record<string, unknown> }[];
};

/** A Gateway running in a child process (`fixtures/durable-gateway-child.ts`). */
export interface GatewayChild {
  readonly process: ChildProcess;
  /** Every line printed so far, in order. */
  readonly lines: ChildLine[];
  /** Resolves with the first line (already printed or still to come) that matches. */
  waitFor(match: (line: ChildLine) => boolean, what: string): Promise<ChildLine>;
  inject(message: InjectedMessage): void;
  /** SIGKILL, resolved once the process is gone. */
  kill(): Promise<void>;
  /** Resolves with the exit code and signal. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const children = new Set<ChildProcess>();
const dirs: string[] = [];

/** A fresh folder for one test's database; removed by `cleanUpChildren`. */
export function freshDbPath(): string {
  const dir = mkdtempSync(join(tmpdir(), "chorus-durable-"));
  dirs.push(dir);
  return join(dir, "chorus.db");
}

/** Starts a child and resolves once its gateway has started (recovery done, channels started). */
export async function startGatewayChild(options: ChildOptions): Promise<GatewayChild> {
  const child = spawn(
    process.execPath,
    [
      // @chorus/core's sources use parameter properties, which plain type stripping refuses.
      "--experimental-transform-types",
      "--no-warnings",
      "--import",
      join(fixtures, "resolve-ts-specifiers.mjs"),
      join(fixtures, "durable-gateway-child.ts"),
      JSON.stringify(options),
    ],
    { stdio: ["pipe", "pipe", "pipe"], env: CHILD_PROCESS_ENV },
  );
  children.add(child);
  const lines: ChildLine[] = [];
  const waiters: { match: (line: ChildLine) => boolean; resolve: (line: ChildLine) => void }[] = [];
  let stderr = "";
  let buffered = "";
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => {
      children.delete(child);
      resolve({ code, signal });
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
    process: child,
    lines,
    exited,
    waitFor(match, what) {
      const seen = lines.find(match);
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        waiters.push({ match, resolve });
        void exited.then(({ code, signal }) =>
          reject(new Error(`the child exited (${code ?? signal}) before ${what}; stderr: ${stderr}`)),
        );
      });
    },
    inject(message) {
      child.stdin?.write(`${JSON.stringify({ inject: message })}\n`);
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

/** Texts the child's channel sent (delivered on the platform), in order. */
export function sentTexts(child: GatewayChild): string[] {
  return child.lines.filter((line) => line.type === "sent").map((line) => line.text ?? "");
}

/**
 * A DM from the bot's admin (owner tier, so the fixture's tool is allowed). The event id is explicit: each child's
 * TestChannel numbers its messages from 0, and the store would drop a repeated id as a replay.
 */
export function adminDm(text: string, eventId: string): InjectedMessage {
  return { text, sender: { id: "admin", name: "Admin" }, messageId: eventId, eventId };
}

/** The texts of the facts remembered about the admin (`adminDm`'s sender) in the SQLite file at `path`. */
export async function adminFactsIn(path: string): Promise<string[]> {
  const memory = new SqliteMemoryStore({ path });
  try {
    return (await memory.export("user:test:admin")).facts.map((fact) => fact.text);
  } finally {
    await memory.close();
  }
}
