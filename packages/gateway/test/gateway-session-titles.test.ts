import { afterEach, describe, expect, it } from "vitest";
import { titleFromText } from "../src/titles/session-title.js";
import { type Harness, startHarness } from "./fixtures/gateway-harness.js";

const KEY = "main:main:test:dm:user-1";

// Model-written titles are an extension's (@chorus/extension-titles); the gateway titles a session by its first line.
describe("session titles", () => {
  let h: Harness;
  afterEach(async () => h.close());

  it("come from the first message's first line, stored with the session it creates", async () => {
    h = await startHarness({ script: ["Sure!"] });
    await h.send({ text: "help me plan 3 days in Lisbon\nwith kids" });
    expect((await h.store.getSession(KEY))?.title).toBe("help me plan 3 days in Lisbon");
    expect(h.channel.transcript("dm-user-1")).toEqual(["Sure!"]);
  });

  it("are left out with titles: false", async () => {
    h = await startHarness({ script: ["Sure!"], gateway: { titles: false } });
    await h.send({ text: "help me plan 3 days in Lisbon" });
    expect((await h.store.getSession(KEY))?.title).toBeUndefined();
  });

  it("cut long first lines at a word boundary", () => {
    const title = titleFromText(`${"word ".repeat(30)}\nsecond line`);
    expect(title.length).toBeLessThanOrEqual(60);
    expect(title.endsWith("word…")).toBe(true);
    expect(titleFromText("   ")).toBe("Untitled");
  });
});
