import { MemorySessionStore } from "@chorus/store";
import { afterEach, describe, expect, it } from "vitest";
import { type AutonomyHarness as Harness, startAutonomyHarness as startHarness } from "./fixtures/autonomy-harness.js";

describe("a builtin command that throws", () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  it("is answered with a sentence naming the command; the error's detail stays in the log", async () => {
    const store = new MemorySessionStore();
    store.listSchedules = async () => {
      throw new Error("internal detail: table schedules is on fire");
    };
    h = await startHarness({ store, script: ["agent answer"] });
    await h.send({ text: "/schedule list", sender: { id: "admin", name: "Admin" } });
    const answer = h.channel.transcript("dm-admin").at(-1);
    expect(answer).toBe(
      "That failed: /schedule did not finish because something went wrong inside the bot (the details are in its log). " +
        "Please try again in a moment; if it keeps failing, tell the bot's admin.",
    );
    expect(answer).not.toContain("on fire");
    expect(h.streamFn.calls).toHaveLength(0);
  });
});
