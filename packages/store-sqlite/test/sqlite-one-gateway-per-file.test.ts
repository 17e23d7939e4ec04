import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type SessionStore, SessionStoreError } from "@chorus/gateway";
import { afterEach, expect, it } from "vitest";
import { SqliteSessionStore } from "../src/index.js";
import { CHILD_PROCESS_ENV } from "./fixtures/child-process-env.js";

const fixtures = fileURLToPath(new URL("./fixtures/", import.meta.url));
const SESSION = { key: "main:bot:test:dm:1", agentId: "main", channel: "test", accountId: "bot", chatId: "1" };

let dir: string | undefined;
let child: ChildProcess | undefined;
const open: SessionStore[] = [];

afterEach(async () => {
  if (child !== undefined && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  child = undefined;
  for (const store of open.splice(0)) await store.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function freshPath(): string {
  dir = mkdtempSync(join(tmpdir(), "chorus-owner-"));
  return join(dir, "chorus.db");
}

function refusal(attempt: () => unknown): SessionStoreError {
  try {
    attempt();
  } catch (error) {
    if (error instanceof SessionStoreError) return error;
    throw error;
  }
  throw new Error("the second open was not refused");
}

it("refuses a second store on a file another store in this process has open, until that one closes", async () => {
  const path = freshPath();
  const first = SqliteSessionStore.open({ path });
  open.push(first);
  await first.storeInboundMessage({
    event: { channel: "test", accountId: "bot", eventId: "e1" },
    session: SESSION,
    message: { role: "user", content: "hello", timestamp: 1 },
  });

  const error = refusal(() => SqliteSessionStore.open({ path }));
  expect(error.code).toBe("in-use");
  expect(error.path).toBe(path);
  expect(error.message).toContain(`The session store at ${path} is in use by another gateway`);
  // The first store goes on as before.
  expect((await first.readTranscript(SESSION.key)).map((entry) => entry.seq)).toEqual([1]);

  // One companion file holds the lock, and nothing else is left beside the database for it.
  expect(readdirSync(dirname(path)).filter((name) => name.includes(".lock"))).toEqual(["chorus.db.lock"]);

  await first.close();
  open.pop();
  const second = SqliteSessionStore.open({ path });
  open.push(second);
  expect((await second.getSession(SESSION.key))?.lastSeq).toBe(1);
  // An inspection tool may still look at a file a gateway has open.
  const inspector = SqliteSessionStore.open({ path, exclusive: false });
  open.push(inspector);
  expect((await inspector.listSessions()).map((session) => session.key)).toEqual([SESSION.key]);
});

it("refuses while another process has the file open, and not after that process was killed", async () => {
  const path = freshPath();
  const writer = spawn(
    process.execPath,
    ["--import", join(fixtures, "resolve-ts-specifiers.mjs"), join(fixtures, "store-append-until-killed.ts"), path],
    { stdio: ["ignore", "pipe", "pipe"], env: CHILD_PROCESS_ENV },
  );
  child = writer;
  const exited = new Promise<void>((resolve) => writer.once("exit", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    writer.stdout?.once("data", () => resolve());
    writer.once("exit", (code) => reject(new Error(`the writer exited early (${code})`)));
  });

  expect(refusal(() => SqliteSessionStore.open({ path })).code).toBe("in-use");

  writer.kill("SIGKILL");
  await exited;
  // The OS released the dead process's lock: no stale lock file to clean up by hand.
  const store = SqliteSessionStore.open({ path });
  open.push(store);
  expect((await store.getSession(SESSION.key))?.lastSeq).toBeGreaterThan(0);
});
