import { describe, expect, it } from "vitest";
import { MemorySessionStore } from "../src/store/index.js";
import { startHarness } from "./fixtures/gateway-harness.js";

describe("/model", () => {
  it("switches this chat's model, and a new Gateway on the same store keeps using it", async () => {
    const store = new MemorySessionStore();
    const first = await startHarness({ store, script: ["before"] });
    await first.send({ text: "hello" });
    expect(first.streamFn.calls[0]!.model.id).toBe("fake-model");
    await first.send({ text: "/model fake-large" });
    expect(first.channel.transcript("dm-user-1").at(-1)).toBe("This chat now uses fake-large.");
    await first.close();

    const second = await startHarness({ store, script: ["after"] });
    // A new TestChannel numbers its messages from 1 again: give them fresh ids, or the durable dedupe drops them.
    await second.send({ text: "still there?", messageId: "second-1" });
    expect(second.streamFn.calls[0]!.model.id).toBe("fake-large");
    // The transcript came back from the store too.
    expect(JSON.stringify(second.streamFn.calls[0]!.context.messages)).toContain("hello");
    await second.send({ text: "/model", messageId: "second-2" });
    expect(second.channel.transcript("dm-user-1").at(-1)).toContain("This chat uses fake-large.");
    // Another chat is unaffected.
    await second.send({ text: "hi", messageId: "second-3", sender: { id: "bob", name: "Bob" } });
    expect(second.streamFn.calls.at(-1)!.model.id).toBe("fake-model");
    await second.close();
  });

  it("lists the known models for an unknown id and changes nothing", async () => {
    const h = await startHarness();
    await h.send({ text: "/model gpt-99" });
    expect(h.channel.transcript("dm-user-1").at(-1)).toBe(
      'Unknown model "gpt-99". Known models: fake-model, fake-large.',
    );
    expect((await h.store.getSession("main:main:test:dm:user-1"))?.modelOverride).toBeUndefined();
    await h.close();
  });
});
