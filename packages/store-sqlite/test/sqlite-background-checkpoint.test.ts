import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { SqliteSessionStore } from "../src/index.js";

let dir: string;
let path: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "chorus-checkpoint-"));
  path = join(dir, "chorus.db");
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const session = { key: "k", agentId: "main", channel: "test", accountId: "bot", chatId: "1" };
const bigMessage = (i: number) => ({ role: "user" as const, content: `${i} ${"y".repeat(4000)}`, timestamp: i });

it("moves committed data from the WAL into the database file on its worker thread, not in a commit", async () => {
  // 100 × 4 KB stays far below SQLite's own auto-checkpoint threshold (1000 pages), so only the worker can do it.
  const store = SqliteSessionStore.open({ path, checkpointIntervalMs: 10 });
  try {
    await store.ensureSession(session);
    for (let i = 0; i < 100; i++) await store.appendMessages("k", [bigMessage(i)]);
    await vi.waitFor(() => expect(statSync(path).size).toBeGreaterThan(400_000), { timeout: 10_000, interval: 20 });
  } finally {
    await store.close();
  }
  const reopened = SqliteSessionStore.open({ path });
  try {
    expect((await reopened.readTranscript("k")).length).toBe(100);
  } finally {
    await reopened.close();
  }
});

it("reports a failing checkpoint through onCheckpointError instead of throwing", async () => {
  const errors: string[] = [];
  const store = SqliteSessionStore.open({ path, checkpointIntervalMs: 10, onCheckpointError: (m) => errors.push(m) });
  try {
    await store.ensureSession(session);
    // Removing the folder under the open database makes the worker's checkpoint fail to write.
    rmSync(dir, { recursive: true, force: true });
    await store.appendMessages("k", [bigMessage(1)]);
    await vi.waitFor(() => expect(errors.length).toBeGreaterThan(0), { timeout: 10_000, interval: 20 });
  } finally {
    await store.close();
  }
});
