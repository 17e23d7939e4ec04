import { describe, expect, it, vi } from "vitest";

// Stand-ins that record when a platform library is first imported, and refuse to load.
const loaded = vi.hoisted(() => [] as string[]);
vi.mock("discord.js", () => {
  loaded.push("discord.js");
  throw new Error("discord.js is not available in this test");
});
vi.mock("@slack/bolt", () => {
  loaded.push("@slack/bolt");
  throw new Error("@slack/bolt is not available in this test");
});
vi.mock("grammy", () => {
  loaded.push("grammy");
  throw new Error("grammy is not available in this test");
});

describe("platform libraries load only when a channel of that kind starts", () => {
  it("creating channels loads nothing; starting one loads only its own library", async () => {
    const { createDiscordChannel, createSlackChannel, createTelegramChannel } = await import(
      "../src/channels/index.js"
    );
    const discord = createDiscordChannel({ accountId: "d", token: "t" });
    createSlackChannel({ accountId: "s", mode: "socket", botToken: "xoxb-1", appToken: "xapp-1" });
    createTelegramChannel({ accountId: "t", token: "1:x" });
    expect(loaded).toEqual([]);

    await expect(discord.start(() => {})).rejects.toThrow();
    expect(loaded).toEqual(["discord.js"]);
  });
});
