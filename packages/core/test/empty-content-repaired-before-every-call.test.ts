import { describe, expect, it } from "vitest";
import { EMPTY_MESSAGE_TEXT, emptyUsage, type Message, withoutEmptyContent } from "../src/index.js";

const user = (content: string, timestamp = 1): Message => ({
  role: "user",
  content,
  timestamp,
});
const assistant = (text: string): Message => ({
  role: "assistant",
  content: [{ type: "text", text }],
  api: "fake",
  provider: "fake",
  model: "fake",
  usage: emptyUsage(),
  stopReason: "stop",
  timestamp: 1,
});

describe("empty content is repaired before every model call", () => {
  it("leaves a clean transcript as it is (same array)", () => {
    const messages = [user("hi"), assistant("hello")];
    expect(withoutEmptyContent(messages)).toBe(messages);
  });

  it("drops a blank user message next to another user message, and keeps roles alternating elsewhere", () => {
    const repaired = withoutEmptyContent([user(""), user("hi"), assistant("hello"), user("  "), assistant("more?")]);
    expect(repaired.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(repaired[2]).toMatchObject({ role: "user", content: EMPTY_MESSAGE_TEXT });
  });

  it("removes blank text parts of user and assistant messages", () => {
    const repaired = withoutEmptyContent([
      {
        role: "user",
        content: [
          { type: "text", text: "" },
          { type: "text", text: "look" },
        ],
        timestamp: 1,
      },
      assistant(""),
    ]);
    expect(repaired[0]).toMatchObject({ content: [{ type: "text", text: "look" }] });
    expect(repaired[1]).toMatchObject({ role: "assistant", content: [] });
  });
});
