import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TOOL_PAIR_SUMMARY_MARKER } from "@chorus/core";
import { type Harness, startHarness } from "@chorus/gateway-testing";
import type { SessionStore } from "@chorus/store";
import { PostgresSessionStore } from "@chorus/store-postgres";
import { createScratchDatabase, type ScratchDatabase } from "@chorus/store-postgres/testing";
import { SqliteSessionStore } from "@chorus/store-sqlite";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { TOOL_PAIR_SUMMARIES_SETTING } from "../src/index.js";
import {
  ADMIN,
  extensions,
  KEY,
  script,
  sentResults,
  summaryCalls,
  turnCalls,
  WINDOW,
} from "./fixtures/tool-pair-gateway.js";

/** A store kind: how to open the same store again (a restart), and its cleanup. */
interface StoreKind {
  readonly name: string;
  open(): Promise<SessionStore>;
  cleanup(): Promise<void>;
}

function sqlite(): StoreKind {
  const dir = mkdtempSync(join(tmpdir(), "chorus-tool-pairs-"));
  return {
    name: "SQLite",
    open: async () => SqliteSessionStore.open({ path: join(dir, "store.db") }),
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

function postgres(): StoreKind {
  let database: Promise<ScratchDatabase> | undefined;
  return {
    name: "PostgreSQL",
    open: async () => {
      database ??= createScratchDatabase();
      return PostgresSessionStore.open({ url: (await database).url, onWarning: () => {} });
    },
    cleanup: async () => (await database)?.drop(),
  };
}

const kinds = [sqlite(), postgres()];
afterAll(async () => {
  for (const kind of kinds) await kind.cleanup();
});

describe.each(kinds)("tool-pair summaries are kept with the session ($name)", (kind) => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    await h?.store.close();
    h = undefined;
  });

  it("a new gateway on the same store applies the stored summaries without making them again; /new drops them", async () => {
    const start = async () =>
      startHarness({ store: await kind.open(), script, gateway: { ...WINDOW, extensions: extensions() } });
    h = await start();
    for (let i = 0; i < 4; i++) await h.send({ text: `read page ${i}`, sender: ADMIN, messageId: `m${i}` });
    expect(Object.keys((await h.store.getSession(KEY))?.settings[TOOL_PAIR_SUMMARIES_SETTING] ?? {})).toHaveLength(4);
    await h.close();
    await h.store.close();

    h = await start();
    await h.send({ text: "read one more", sender: ADMIN, messageId: "after-restart" });
    // Only the new pair is summarised; the stored summaries replace the older results at the first request.
    expect(summaryCalls(h)).toHaveLength(1);
    expect(sentResults(turnCalls(h)[0]!.context).slice(0, 3)).toEqual(
      [0, 1, 2].map((n) => `${TOOL_PAIR_SUMMARY_MARKER}\npage ${n} was about words`),
    );
    expect(Object.keys((await h.store.getSession(KEY))?.settings[TOOL_PAIR_SUMMARIES_SETTING] ?? {})).toHaveLength(5);

    await h.send({ text: "/new", sender: ADMIN, messageId: "new" });
    expect((await h.store.getSession(KEY))?.settings[TOOL_PAIR_SUMMARIES_SETTING]).toBeUndefined();
  }, 30_000);
});
