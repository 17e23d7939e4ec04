import { describe, expect, it, vi } from "vitest";

// A stand-in that records when @slack/bolt is first imported, and refuses to load.
const loaded = vi.hoisted(() => [] as string[]);
vi.mock("@slack/bolt", () => {
  loaded.push("@slack/bolt");
  throw new Error("@slack/bolt is not available in this test");
});

describe("@slack/bolt loads only when a Slack channel starts", () => {
  it("importing the package and creating a channel loads nothing; starting it loads bolt", async () => {
    const { createSlackChannel } = await import("../src/index.js");
    const slack = createSlackChannel({ accountId: "s", mode: "socket", botToken: "xoxb-1", appToken: "xapp-1" });
    expect(loaded).toEqual([]);

    await expect(slack.start(() => {})).rejects.toThrow();
    expect(loaded).toEqual(["@slack/bolt"]);
  });
});
