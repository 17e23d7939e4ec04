import { userMessage } from "@chorus/core/testing";
import type { SessionStore } from "@chorus/store";
import { describe, expect, it } from "vitest";
import type { ClockedStore } from "./clocked-store.js";
import { dmSession } from "./conformance-fixtures.js";
import { openStoreEachTest } from "./store-per-test.js";
import { rejection } from "./store-rejection.js";

/** Part of the conformance suite: sessions are created once, patched, listed per agent and deleted. */
export function describeSessions(open: () => ClockedStore): void {
  describe("sessions", () => {
    let h: ClockedStore;
    let store: SessionStore;
    openStoreEachTest(open, (opened) => {
      h = opened;
      store = opened.store;
    });

    it("creates a session once and never overwrites it", async () => {
      const first = await store.ensureSession({ ...dmSession(), title: "Trip planning" });
      expect(first.created).toBe(true);
      expect(first.session).toEqual({
        ...dmSession(),
        title: "Trip planning",
        settings: {},
        createdAt: h.clock.now,
        updatedAt: h.clock.now,
        lastSeq: 0,
        transcriptStartSeq: 1,
      });
      h.clock.now += 1000;
      const second = await store.ensureSession({ ...dmSession(), title: "Something else" });
      expect(second.created).toBe(false);
      expect(second.session).toEqual(first.session);
    });

    it("applies patches: null clears a field, settings are replaced, updatedAt moves", async () => {
      await store.ensureSession({ ...dmSession(), title: "Old", settings: { activation: "mention" } });
      h.clock.now += 5000;
      const updated = await store.updateSession(dmSession().key, {
        title: null,
        modelOverride: "claude-opus",
        queueModeOverride: "collect",
        settings: { verbose: true, tags: ["a", "b"] },
      });
      expect(updated.title).toBeUndefined();
      expect("title" in updated).toBe(false);
      expect(updated.modelOverride).toBe("claude-opus");
      expect(updated.queueModeOverride).toBe("collect");
      expect(updated.settings).toEqual({ verbose: true, tags: ["a", "b"] });
      expect(updated.updatedAt).toBe(h.clock.now);
      expect(await store.getSession(dmSession().key)).toEqual(updated);
      const kept = await store.updateSession(dmSession().key, { title: "New" });
      expect(kept.modelOverride).toBe("claude-opus");
      expect(kept.title).toBe("New");
    });

    it("rejects updates of an unknown session with not-found", async () => {
      const error = await rejection(store.updateSession("nope", { title: "x" }));
      expect(error.code).toBe("not-found");
      expect(await store.getSession("nope")).toBeUndefined();
    });

    it("lists sessions per agent, most recently updated first, with a limit", async () => {
      await store.ensureSession(dmSession("a", "main"));
      h.clock.now += 1;
      await store.ensureSession(dmSession("b", "main"));
      h.clock.now += 1;
      await store.ensureSession(dmSession("c", "helper"));
      h.clock.now += 1;
      await store.appendMessages("a", [userMessage("wake up")]);
      expect((await store.listSessions({ agentId: "main" })).map((s) => s.key)).toEqual(["a", "b"]);
      expect((await store.listSessions()).map((s) => s.key)).toEqual(["a", "c", "b"]);
      expect((await store.listSessions({ limit: 1 })).map((s) => s.key)).toEqual(["a"]);
    });

    it("deletes a session with its transcript", async () => {
      await store.ensureSession(dmSession());
      await store.appendMessages(dmSession().key, [userMessage("hi")]);
      expect(await store.deleteSession(dmSession().key)).toBe(true);
      expect(await store.deleteSession(dmSession().key)).toBe(false);
      expect(await store.getSession(dmSession().key)).toBeUndefined();
      expect(await store.readTranscript(dmSession().key)).toEqual([]);
    });
  });
}
