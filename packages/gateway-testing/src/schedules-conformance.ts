import type { ScheduleRecord, SessionStore } from "@chorus/store";
import { describe, expect, it } from "vitest";
import type { ClockedStore } from "./clocked-store.js";
import { HOUR } from "./conformance-fixtures.js";
import { openStoreEachTest } from "./store-per-test.js";
import { rejection } from "./store-rejection.js";

/** Part of the conformance suite: schedules (kept, replaced by id, listed by status, rolled back). */
export function describeSchedules(open: () => ClockedStore): void {
  describe("schedules", () => {
    let store: SessionStore;
    openStoreEachTest(open, (opened) => {
      store = opened.store;
    });

    const schedule = (id: string, createdAt: number, extra: Partial<ScheduleRecord> = {}): ScheduleRecord => ({
      id,
      status: "active",
      nextRunAt: createdAt + HOUR,
      data: { prompt: "daily report", spec: { kind: "cron", expr: "0 9 * * *", timeZone: "Europe/Berlin" } },
      createdAt,
      updatedAt: createdAt,
      ...extra,
    });

    it("keeps a schedule with its data, replaces it by id and deletes it", async () => {
      await store.putSchedule(schedule("s1", 1_000));
      expect(await store.getSchedule("s1")).toEqual(schedule("s1", 1_000));
      const { nextRunAt: _none, ...withoutNext } = schedule("s1", 1_000, { status: "done", updatedAt: 5_000 });
      await store.putSchedule(withoutNext);
      expect(await store.getSchedule("s1")).toEqual(withoutNext);
      expect(await store.deleteSchedule("s1")).toBe(true);
      expect(await store.deleteSchedule("s1")).toBe(false);
      expect(await store.getSchedule("s1")).toBeUndefined();
    });

    it("lists schedules oldest first, narrowed by status", async () => {
      await store.putSchedule(schedule("b", 2_000));
      await store.putSchedule(schedule("a", 2_000, { status: "stopped" }));
      await store.putSchedule(schedule("c", 1_000));
      expect((await store.listSchedules()).map((s) => s.id)).toEqual(["c", "a", "b"]);
      expect((await store.listSchedules({ status: "active" })).map((s) => s.id)).toEqual(["c", "b"]);
      expect((await store.listSchedules({ status: ["stopped", "done"] })).map((s) => s.id)).toEqual(["a"]);
    });

    it("refuses data that is not JSON, storing nothing", async () => {
      const error = await rejection(store.putSchedule(schedule("bad", 1_000, { data: { n: 1n } as never })));
      expect(error.code).toBe("invalid-input");
      expect(await store.listSchedules()).toEqual([]);
    });

    it("rolls a schedule written in a failed transaction back", async () => {
      await expect(
        store.transaction(async (tx) => {
          await tx.putSchedule(schedule("s1", 1_000));
          throw new Error("boom");
        }),
      ).rejects.toThrow("boom");
      expect(await store.getSchedule("s1")).toBeUndefined();
    });
  });
}
