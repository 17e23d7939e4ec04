import type { StreamContext } from "@chorus/core";
import { type Harness, startHarness } from "@chorus/gateway-testing";
import type { SessionStore } from "@chorus/store";
import { expect, it } from "vitest";
import { contextExtension, contextSettingsSchema, TODOS_SETTING } from "../../src/index.js";
import { PLAN, PROGRESS, REMINDER, remindersIn, textOf, todoScript } from "./todo-script.js";

const AGENTS = { main: contextSettingsSchema.parse({ todos: { enabled: true } }) };
const DM = "main:main:test:dm:alice";
const alice = { chatType: "dm" as const, sender: { id: "alice" } };

async function gatewayOn(store: SessionStore): Promise<Harness> {
  // idleEvictMs 0: the session's Agent is let go after every turn, and built again from the store for the next.
  return startHarness({
    store,
    script: todoScript,
    gateway: { idleEvictMs: 0, extensions: [contextExtension({ agents: AGENTS })] },
  });
}

/** The reminder the request ends with (built by this Agent before the call), or "" when it ends otherwise. */
function closingReminder(context: StreamContext | undefined): string {
  const last = context?.messages.at(-1) as { isMeta?: boolean } | undefined;
  return last?.isMeta === true ? textOf(last) : "";
}

/**
 * The todo list through a whole gateway on a durable store: `todo_write` stores the list, the next request reminds
 * the model of its open items (completed ones left out), the list survives the Agent being let go and a new gateway on
 * the same database, and `/new` drops it. `openStore` opens the same database each time it is called.
 */
export function todosAcrossRestarts(openStore: () => Promise<SessionStore>): void {
  it("stores the list, reminds of its open items, keeps it across a restart and drops it on /new", async () => {
    let h = await gatewayOn(await openStore());
    try {
      await h.send({ ...alice, text: "make a plan" });
      expect(h.channel.transcript("dm-alice").at(-1)).toContain(
        "Todo list saved: 3 items — 1 in progress, 1 pending, 1 completed.",
      );
      expect((await h.store.getSession(DM))?.settings[TODOS_SETTING]).toEqual({ version: 1, items: PLAN });
      // The request right after the tool call carries the open items, not the completed one.
      const reminder = closingReminder(h.streamFn.calls.at(-1)?.context);
      expect(reminder).toContain(`${REMINDER}\n- OPEN-A read the parser (in progress)\n- OPEN-B write the tests`);
      expect(reminder).not.toContain("DONE-C");

      // The Agent was let go: the next one reads the list back and reminds of it before its first call.
      await h.send({ ...alice, text: "hello" });
      expect(closingReminder(h.streamFn.calls.at(-1)?.context)).toContain("OPEN-B write the tests");
    } finally {
      await h.close();
      await h.store.close();
    }

    // A new channel numbers its messages afresh: those after the restart get ids of their own (inbound dedupe).
    h = await gatewayOn(await openStore());
    try {
      await h.send({ ...alice, text: "where were we?", messageId: "after-1" });
      expect(closingReminder(h.streamFn.calls[0]?.context)).toContain(
        "- OPEN-A read the parser (in progress)\n- OPEN-B write the tests",
      );
      await h.send({ ...alice, text: "progress", messageId: "after-2" });
      expect((await h.store.getSession(DM))?.settings[TODOS_SETTING]).toEqual({ version: 1, items: PROGRESS });
      const changed = closingReminder(h.streamFn.calls.at(-1)?.context);
      expect(changed).toContain("- OPEN-B write the tests (in progress)");
      expect(changed).not.toContain("OPEN-A");

      await h.send({ ...alice, text: "/new", messageId: "after-3" });
      expect((await h.store.getSession(DM))?.settings[TODOS_SETTING]).toBeUndefined();
      await h.send({ ...alice, text: "hello again", messageId: "after-4" });
      expect(remindersIn(h.streamFn.calls.at(-1)?.context)).not.toContain(REMINDER);
    } finally {
      await h.close();
      await h.store.close();
    }
  }, 30_000);
}
