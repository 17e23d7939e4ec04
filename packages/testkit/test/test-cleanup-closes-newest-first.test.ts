import { describe, expect, it } from "vitest";
import { TestCleanup } from "../src/index.js";

describe("TestCleanup", () => {
  it("shuts tracked items newest first, each once, with the method each one has", async () => {
    const closed: string[] = [];
    const cleanup = new TestCleanup();
    const fake = cleanup.track({ close: async () => closed.push("fake: close") });
    cleanup.track({ destroy: () => closed.push("client: destroy") });
    cleanup.track({ stop: async () => closed.push("gateway: stop") });
    expect(cleanup.track(fake)).toBe(fake);

    await cleanup.closeAll();
    expect(closed).toEqual(["gateway: stop", "client: destroy", "fake: close"]);
    await cleanup.closeAll();
    expect(closed).toHaveLength(3);
  });

  it("tries every item when one fails, then rejects with the first failure", async () => {
    const closed: string[] = [];
    const cleanup = new TestCleanup();
    cleanup.track({ close: async () => closed.push("fake") });
    cleanup.track({
      stop: async () => {
        throw new Error("channel would not stop");
      },
    });
    cleanup.track({
      stop: async () => {
        throw new Error("gateway would not stop");
      },
    });

    await expect(cleanup.closeAll()).rejects.toThrow("gateway would not stop");
    expect(closed).toEqual(["fake"]);
  });
});
