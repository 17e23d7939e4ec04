import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_SUMMARY_PROMPT } from "@chorus/core";
import { type Harness, startHarness } from "@chorus/gateway-testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SqliteSessionStore } from "../src/index.js";

// /status's last compaction lives in the session's settings: a restart is the SQLite file reopened by a new Gateway.
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "chorus-compaction-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const KEY = "main:main:test:dm:user-1";
/** A small window, so the third long message makes the loop compact before its model call. */
const SMALL_WINDOW = {
  loop: {
    context: {
      window: 10_000,
      reserve: 2_000,
      blockingReserve: 500,
      microCompaction: { enabled: false },
      compaction: { keepRecentTokens: 1_500 },
    },
  },
};
const n = (tokens: number): string => tokens.toLocaleString("en-US");

async function start(store: SqliteSessionStore): Promise<Harness> {
  let turn = 0;
  const script = (context: { systemPrompt?: string }) =>
    context.systemPrompt === DEFAULT_SUMMARY_PROMPT ? "the gist" : `answer ${++turn}`;
  return startHarness({ store, script, gateway: SMALL_WINDOW });
}

describe("the last compaction on SQLite across a restart", () => {
  it("/status on a new Gateway over the same file shows when the last compaction ran and what it saved", async () => {
    const path = join(dir, "chorus.db");
    const firstStore = SqliteSessionStore.open({ path });
    const first = await start(firstStore);
    for (let i = 0; i < 3; i++) await first.send({ text: "x ".repeat(6_000), messageId: `long-${i}` });
    const last = (await firstStore.getSession(KEY))?.settings.lastCompaction as {
      before: number;
      after: number;
      atMs: number;
    };
    expect(last.before).toBeGreaterThan(last.after);
    await first.close();
    await firstStore.close();

    const store = SqliteSessionStore.open({ path });
    const second = await start(store);
    try {
      await second.send({ text: "/status", messageId: "after-restart" });
      const line = second.channel.transcript("dm-user-1").at(-1)!;
      const time = new Date(last.atMs).toISOString().slice(11, 16);
      expect(line).toContain(`**Last compaction** ${time} UTC, saved ${n(last.before - last.after)} tokens`);
      expect(line).toContain(`(${n(last.before)} → ${n(last.after)})`);
      expect(line).toMatch(/\*\*Context\*\* ~[\d,]+ \/ 10,000 tokens \(\d+% full\)/);
      expect((await store.getSession(KEY))?.settings.contextMaxTokens).toBe(10_000);
    } finally {
      await second.close();
      await store.close();
    }
  });
});
