import type { HandedOffMessage, OwnershipEvent, SessionOwnership } from "@chorus/gateway";
import { MemorySessionStore, type StoreFence } from "@chorus/store";
import { afterEach, describe, expect, it } from "vitest";
import { type AutonomyHarness as Harness, startAutonomyHarness as startHarness } from "./fixtures/autonomy-harness.js";

// Moved from the gateway's cluster-ownership-decides-who-answers test with schedules.

/** A hand-driven `SessionOwnership`: the test says which sessions are owned. */
class FakeOwnership implements SessionOwnership {
  readonly instanceId = "test";
  readonly owned = new Set<string>();
  async start(_listener: (event: OwnershipEvent) => void): Promise<void> {}
  fenceFor(sessionKey: string): StoreFence | undefined {
    return this.owned.has(sessionKey) ? { epoch: 7 } : undefined;
  }
  async handOff(_message: HandedOffMessage): Promise<void> {}
  async stop(): Promise<void> {}
}

function clusterStore(): { store: MemorySessionStore & { ownership: FakeOwnership }; ownership: FakeOwnership } {
  const ownership = new FakeOwnership();
  return { store: Object.assign(new MemorySessionStore(), { ownership }), ownership };
}

describe("schedules in a cluster", () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it("runs a due schedule only at the owner of its session, and once", async () => {
    const { store, ownership } = clusterStore();
    const clock = { at: Date.parse("2026-11-25T08:00:00Z"), now: () => clock.at };
    h = await startHarness({
      store,
      script: ["scheduled answer"],
      autonomy: { scheduleTickMs: 24 * 3_600_000 },
      gateway: { now: clock.now },
    });
    const key = "main:main:test:dm:admin";
    ownership.owned.add(key);
    await h.send({ text: "/schedule in 5m stand-up", sender: { id: "admin", name: "Admin" } });
    expect(await store.listSchedules()).toHaveLength(1);
    clock.at += 6 * 60_000;
    // Another instance owns the session now: this one leaves the schedule to it.
    ownership.owned.delete(key);
    expect(await h.autonomy.runDueSchedules()).toBe(0);
    ownership.owned.add(key);
    expect(await h.autonomy.runDueSchedules()).toBe(1);
    await h.gateway.idle();
    expect(await h.autonomy.runDueSchedules()).toBe(0);
    expect(h.streamFn.calls).toHaveLength(1);
    expect(h.channel.transcript("dm-admin").at(-1)).toBe("scheduled answer");
  });
});
