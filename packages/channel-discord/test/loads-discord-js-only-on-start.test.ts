import { describe, expect, it, vi } from "vitest";

// A stand-in that records when discord.js is first imported, and refuses to load.
const loaded = vi.hoisted(() => [] as string[]);
vi.mock("discord.js", () => {
  loaded.push("discord.js");
  throw new Error("discord.js is not available in this test");
});

describe("discord.js loads only when a Discord channel starts", () => {
  it("importing the package and creating a channel loads nothing; starting it loads discord.js", async () => {
    const { createDiscordChannel } = await import("../src/index.js");
    const discord = createDiscordChannel({ accountId: "d", token: "t" });
    expect(loaded).toEqual([]);

    await expect(discord.start(() => {})).rejects.toThrow();
    expect(loaded).toEqual(["discord.js"]);
  });
});
