import { MemorySessionStore } from "@chorus/store";
import { describe, expect, it } from "vitest";
import { PLAN_MODE_SETTING, readPlanMode, storedPlanModes } from "../src/stored-plan-mode.js";

const KEY = "agent:main:test:main:dm:ann";

describe("plan mode kept in the session's settings", () => {
  it("reads back the plan it stored, keeps the session's other settings, and drops only its own", async () => {
    const store = new MemorySessionStore();
    await store.ensureSession({ key: KEY, agentId: "main", channel: "test", accountId: "main", chatId: "ann" });
    await store.updateSession(KEY, { settings: { model: "fake-large" } });
    const storage = storedPlanModes(
      () => store,
      () => {},
    );
    const plan = { text: "1. read", state: "rejected" as const, feedback: "smaller steps", starterIds: ["ann"] };

    await storage.save(KEY, { plan });
    expect(await storage.load(KEY)).toEqual({ plan });
    await storage.save(KEY, undefined);
    expect(await storage.load(KEY)).toBeUndefined();
    expect((await store.getSession(KEY))?.settings).toEqual({ model: "fake-large" });
  });

  it("an unreadable stored value is plan mode without a plan (only information tools), and says why", () => {
    const heard: string[] = [];
    const state = readPlanMode({ [PLAN_MODE_SETTING]: { version: 7 } }, (error) => heard.push(error.message));
    expect(state).toEqual({});
    expect(heard).toEqual([expect.stringContaining("the stored plan mode is unreadable")]);
    expect(readPlanMode({}, () => heard.push("no"))).toBeUndefined();
    expect(heard).toHaveLength(1);
  });
});
