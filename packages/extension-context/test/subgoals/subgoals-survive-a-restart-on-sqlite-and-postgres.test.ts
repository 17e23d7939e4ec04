import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SUBGOAL_PROMPT } from "@chorus/core";
import type { ScriptedTurn } from "@chorus/core/testing";
import type { Harness } from "@chorus/gateway-testing";
import type { SessionStore } from "@chorus/store";
import { PostgresSessionStore } from "@chorus/store-postgres";
import { createScratchDatabase } from "@chorus/store-postgres/testing";
import { SqliteSessionStore } from "@chorus/store-sqlite";
import { describe, expect, it, vi } from "vitest";
import { SUBGOALS_SETTING } from "../../src/index.js";
import { CHAT, startSubgoalHarness } from "./subgoal-harness.js";

const isExtraction = (context: { systemPrompt?: string }): boolean => context.systemPrompt === SUBGOAL_PROMPT;

function gatewayOn(store: SessionStore): Promise<Harness> {
  return startSubgoalHarness({
    store,
    pruning: ["subgoal"],
    script: (context): ScriptedTurn => (isExtraction(context) ? "Fix the login bug" : "On it."),
  });
}

/** `open` opens the same database each time it is called. */
async function acrossARestart(open: () => Promise<SessionStore>): Promise<void> {
  let h = await gatewayOn(await open());
  let key: string;
  try {
    await h.send({ text: "please fix the login bug" });
    key = (await h.store.listSessions())[0]!.key;
    await vi.waitFor(async () => expect((await h.store.getSession(key))?.settings[SUBGOALS_SETTING]).toBeDefined());
  } finally {
    await h.close();
    await h.store.close();
  }
  // A new channel numbers its messages afresh: those after the restart get ids of their own (inbound dedupe).
  h = await gatewayOn(await open());
  try {
    await h.send({ text: "/status", messageId: "after-1" });
    expect(h.channel.transcript(CHAT).at(-1)).toContain("**Subgoal** Fix the login bug");
    await h.send({ text: "and the logout one?", messageId: "after-2" });
    await vi.waitFor(() => expect(h.streamFn.calls.some((call) => isExtraction(call.context))).toBe(true));
    // The restored tracker tells the extraction which subgoal is active.
    const extraction = h.streamFn.calls.find((call) => isExtraction(call.context));
    expect(JSON.stringify(extraction?.context.messages)).toContain("Fix the login bug");
    await h.gateway.idle();
    await h.send({ text: "/new", messageId: "after-3" });
    expect((await h.store.getSession(key))?.settings[SUBGOALS_SETTING]).toBeUndefined();
    await h.send({ text: "/status", messageId: "after-4" });
    expect(h.channel.transcript(CHAT).at(-1)).toContain("**Subgoal** none yet");
  } finally {
    await h.close();
    await h.store.close();
  }
}

describe("a session's subgoals across a restart, with /new dropping them", () => {
  it("on SQLite", async () => {
    const dir = mkdtempSync(join(tmpdir(), "chorus-subgoals-"));
    try {
      await acrossARestart(async () => SqliteSessionStore.open({ path: join(dir, "chorus.db") }));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);

  it("on PostgreSQL", async () => {
    const database = await createScratchDatabase();
    try {
      await acrossARestart(async () => PostgresSessionStore.open({ url: database.url }));
    } finally {
      await database.drop();
    }
  }, 30_000);
});
