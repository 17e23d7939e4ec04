import { fakeModel, scriptedStreamFn } from "@chorus/core/testing";
import { afterEach, describe, expect, it } from "vitest";
import { titleFromText } from "../src/titles/session-title.js";
import { type Harness, startHarness } from "./fixtures/gateway-harness.js";

const KEY = "main:main:test:dm:user-1";

describe("session titles", () => {
  let h: Harness;
  afterEach(async () => h.close());

  it("come from a title model in the background", async () => {
    const titles = scriptedStreamFn(['"Planning a trip to Lisbon."']);
    h = await startHarness({ script: ["Sure!"], gateway: { titles: { model: fakeModel(), streamFn: titles } } });
    await h.send({ text: "help me plan 3 days in Lisbon" });
    expect((await h.store.getSession(KEY))?.title).toBe("Planning a trip to Lisbon");
    expect(h.channel.transcript("dm-user-1")).toEqual(["Sure!"]);
  });

  it("never affect the reply when the title model fails (the message text is used instead)", async () => {
    const titles = scriptedStreamFn([{ fault: "throw", message: "title model down" }]);
    h = await startHarness({ script: ["Sure!"], gateway: { titles: { model: fakeModel(), streamFn: titles } } });
    await h.send({ text: "help me plan 3 days in Lisbon" });
    expect(h.channel.transcript("dm-user-1")).toEqual(["Sure!"]);
    expect((await h.store.getSession(KEY))?.title).toBe("help me plan 3 days in Lisbon");
  });

  it("cut long first lines at a word boundary", () => {
    const title = titleFromText(`${"word ".repeat(30)}\nsecond line`);
    expect(title.length).toBeLessThanOrEqual(60);
    expect(title.endsWith("word…")).toBe(true);
    expect(titleFromText("   ")).toBe("Untitled");
  });
});
