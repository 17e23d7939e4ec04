import { describe, expect, it, vi } from "vitest";

// A stand-in that records when grammy is first imported, and refuses to load.
const loaded = vi.hoisted(() => [] as string[]);
vi.mock("grammy", () => {
  loaded.push("grammy");
  throw new Error("grammy is not available in this test");
});

describe("grammy loads only when a Telegram channel starts", () => {
  it("importing the package and creating a channel loads nothing; starting it loads grammy", async () => {
    const { createTelegramChannel } = await import("../src/index.js");
    const telegram = createTelegramChannel({ accountId: "t", token: "1:x" });
    expect(loaded).toEqual([]);

    await expect(telegram.start(() => {})).rejects.toThrow();
    expect(loaded).toEqual(["grammy"]);
  });
});
