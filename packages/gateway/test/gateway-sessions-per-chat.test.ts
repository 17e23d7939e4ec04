import { afterEach, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "./fixtures/gateway-harness.js";

describe("the gateway keeps one session per chat", () => {
  let h: Harness;
  afterEach(async () => h.close());

  it("gives two people's DMs separate sessions, so one never sees the other's messages", async () => {
    h = await startHarness({ script: ["Hi Ann", "Hi Bob"] });
    await h.send({ text: "my secret is 42", sender: { id: "ann", name: "Ann" } });
    await h.send({ text: "what did Ann say?", sender: { id: "bob", name: "Bob" } });

    const sessions = await h.store.listSessions();
    expect(sessions.map((s) => s.key).sort()).toEqual(["main:main:test:dm:ann", "main:main:test:dm:bob"]);
    const secondCall = h.streamFn.calls[1]!.context.messages;
    expect(JSON.stringify(secondCall)).not.toContain("secret");
    expect(h.channel.transcript("dm-ann")).toEqual(["Hi Ann"]);
    expect(h.channel.transcript("dm-bob")).toEqual(["Hi Bob"]);
  });

  it("gives a group one shared session and a thread its own", async () => {
    h = await startHarness({ script: ["one", "two", "three"] });
    await h.send({
      text: "hello",
      chatType: "group",
      chatId: "g1",
      mentionsBot: true,
      sender: { id: "ann", name: "Ann" },
    });
    await h.send({
      text: "hi",
      chatType: "group",
      chatId: "g1",
      mentionsBot: true,
      sender: { id: "bob", name: "Bob" },
    });
    await h.send({
      text: "in thread",
      chatType: "group",
      chatId: "g1",
      threadId: "t9",
      mentionsBot: true,
      sender: { id: "ann", name: "Ann" },
    });
    const keys = (await h.store.listSessions()).map((s) => s.key).sort();
    expect(keys).toEqual(["main:main:test:group:g1", "main:main:test:group:g1:thread:t9"]);
    // Bob's turn saw Ann's message: the group's session is shared, and speakers are named.
    expect(JSON.stringify(h.streamFn.calls[1]!.context.messages)).toContain("[Ann]: hello");
    const threadSend = h.channel.succeeded("send").find((call) => call.target.threadId === "t9");
    expect(threadSend?.outbound.text).toBe("three");
  });
});
