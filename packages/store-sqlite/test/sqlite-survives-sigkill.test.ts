import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { fileURLToPath } from "node:url";
import { afterEach, expect, it } from "vitest";
import { SqliteSessionStore } from "../src/index.js";
import { CHILD_PROCESS_ENV } from "./fixtures/child-process-env.js";

const fixtures = fileURLToPath(new URL("./fixtures/", import.meta.url));
const SESSION_KEY = "main:bot:test:dm:1";

let child: ChildProcess | undefined;
let dir: string | undefined;

afterEach(() => {
  if (child !== undefined && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  child = undefined;
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** Starts the writer child, kills it once it reports turn `turns` committed, and resolves after it exited. */
function killWriterAfter(dbPath: string, turns: number): Promise<{ lastReported: number; exited: Promise<void> }> {
  const writer = spawn(
    process.execPath,
    ["--import", join(fixtures, "resolve-ts-specifiers.mjs"), join(fixtures, "store-append-until-killed.ts"), dbPath],
    { stdio: ["ignore", "pipe", "pipe"], env: CHILD_PROCESS_ENV },
  );
  child = writer;
  const exited = new Promise<void>((resolve) => writer.once("exit", () => resolve()));
  let stderr = "";
  writer.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    let buffered = "";
    let lastReported = 0;
    writer.stdout?.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      for (const line of lines) lastReported = Number(line.replace("committed ", ""));
      if (lastReported >= turns) {
        // Kill first, then read the count: every reported turn was committed before it was printed.
        writer.kill("SIGKILL");
        resolve({ lastReported, exited });
      }
    });
    writer.once("exit", (code, signal) => {
      if (signal !== "SIGKILL") reject(new Error(`writer exited early (code ${code}, signal ${signal}): ${stderr}`));
    });
  });
}

it("keeps every committed turn whole, and no half-written one, after the writer is killed with SIGKILL", async () => {
  dir = mkdtempSync(join(tmpdir(), "chorus-sigkill-"));
  const dbPath = join(dir, "chorus.db");
  // Three writers in turn on the same file, each killed mid-loop; each continues after what the last one left.
  let lastReported = 0;
  for (const target of [300, 600, 900]) {
    const killed = await killWriterAfter(dbPath, target);
    await killed.exited;
    lastReported = killed.lastReported;
  }

  const store = SqliteSessionStore.open({ path: dbPath });
  try {
    const transcript = await store.readTranscript(SESSION_KEY);
    const outbox = await store.listOutbox({ sessionKey: SESSION_KEY });
    const turns = transcript.length / 2;
    // Whole turns only: two messages and one outbox entry each, committed together.
    expect(Number.isInteger(turns)).toBe(true);
    expect(outbox.length).toBe(turns);
    expect(turns).toBeGreaterThanOrEqual(lastReported);
    for (let turn = 1; turn <= turns; turn++) {
      const question = transcript[2 * turn - 2];
      const answer = transcript[2 * turn - 1];
      expect(question?.seq).toBe(2 * turn - 1);
      expect(question?.message).toMatchObject({ content: `question ${turn}` });
      expect(answer?.message).toMatchObject({ content: expect.stringMatching(new RegExp(`^answer ${turn} x+$`)) });
      expect(outbox[turn - 1]?.payload).toEqual({ turn });
    }
    expect((await store.getSession(SESSION_KEY))?.lastSeq).toBe(transcript.length);
  } finally {
    await store.close();
  }
  const raw = new DatabaseSync(dbPath);
  try {
    expect(raw.prepare("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
  } finally {
    raw.close();
  }
});
