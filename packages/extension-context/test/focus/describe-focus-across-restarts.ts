import { type Harness, startHarness } from "@chorus/gateway-testing";
import type { SessionStore } from "@chorus/store";
import { expect, it } from "vitest";
import { contextExtension, contextSettingsSchema, FOCUS_SETTING } from "../../src/index.js";
import { carries, focusScript } from "./focus-script.js";

const AGENTS = { main: contextSettingsSchema.parse({ focus: { enabled: true } }) };
const DM = "main:main:test:dm:alice";

async function gatewayOn(store: SessionStore): Promise<Harness> {
  return startHarness({ store, script: focusScript, gateway: { extensions: [contextExtension({ agents: AGENTS })] } });
}

/**
 * The Focus strategy through a whole gateway on a durable store: a focus opened in one turn and completed in the next
 * leaves only its knowledge in the requests, the state survives a restart (the stored transcript still holds the raw
 * messages and is reduced again), and `/new` drops it. `openStore` opens the same database each time it is called.
 */
export function focusAcrossRestarts(openStore: () => Promise<SessionStore>): void {
  it("keeps only the knowledge of a completed focus, across a restart, and drops the state on /new", async () => {
    let h = await gatewayOn(await openStore());
    try {
      await h.send({ chatType: "dm", text: "please explore the repo", sender: { id: "alice" } });
      const before = h.streamFn.calls.length;
      await h.send({ chatType: "dm", text: "finish up", sender: { id: "alice" } });
      expect(carries(h.streamFn.calls[before]?.context).raw).toBe(true); // the focus was still open
      await h.send({ chatType: "dm", text: "what did you find?", sender: { id: "alice" } });
      expect(carries(h.streamFn.calls.at(-1)?.context)).toEqual({ raw: false, knowledge: true });
      // The person's own words inside the segment stay.
      expect(JSON.stringify(h.streamFn.calls.at(-1)?.context.messages)).toContain("please explore the repo");
      const stored = (await h.store.getSession(DM))?.settings[FOCUS_SETTING] as { closed: unknown[] };
      expect(stored.closed).toHaveLength(1);
    } finally {
      await h.close();
      await h.store.close();
    }

    // A new channel numbers its messages afresh: those after the restart get ids of their own (inbound dedupe).
    h = await gatewayOn(await openStore());
    try {
      await h.send({ chatType: "dm", text: "and after the restart?", sender: { id: "alice" }, messageId: "after-1" });
      expect(carries(h.streamFn.calls[0]?.context)).toEqual({ raw: false, knowledge: true });
      await h.send({ chatType: "dm", text: "/new", sender: { id: "alice" }, messageId: "after-2" });
      expect((await h.store.getSession(DM))?.settings[FOCUS_SETTING]).toBeUndefined();
      await h.send({ chatType: "dm", text: "hello again", sender: { id: "alice" }, messageId: "after-3" });
      expect(carries(h.streamFn.calls.at(-1)?.context)).toEqual({ raw: false, knowledge: false });
    } finally {
      await h.close();
      await h.store.close();
    }
  }, 30_000);
}
