import { fakeModel } from "@chorus/core/testing";
import { MemorySessionStore } from "@chorus/store";
import { describe, expect, it } from "vitest";
import { BASE_CONFIG, modelCatalog, startHarness } from "./fixtures/gateway-harness.js";

const KEY = "main:main:test:dm:user-1";
/** The agent lets its chats switch between its own model and fake-large. */
const CONFIG = { ...BASE_CONFIG, agents: [{ id: "main", model: "fake-model", models: ["fake-model", "fake-large"] }] };

/** A store where this chat chose fake-large with /model before the restart. */
async function storeWithChoice(): Promise<MemorySessionStore> {
  const store = new MemorySessionStore();
  const first = await startHarness({ store, config: CONFIG, script: ["before"] });
  await first.send({ text: "hello" });
  await first.send({ text: "/model fake-large" });
  await first.close();
  return store;
}

describe("/model", () => {
  it("switches this chat's model, and a new Gateway on the same store keeps using it", async () => {
    const store = new MemorySessionStore();
    const first = await startHarness({ store, config: CONFIG, script: ["before"] });
    await first.send({ text: "hello" });
    expect(first.streamFn.calls[0]!.model.id).toBe("fake-model");
    await first.send({ text: "/model fake-large" });
    expect(first.channel.transcript("dm-user-1").at(-1)).toBe("This chat now uses fake-large.");
    await first.close();

    const second = await startHarness({ store, config: CONFIG, script: ["after"] });
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

  it("lists the agent's models for an unknown id and changes nothing", async () => {
    const h = await startHarness({ config: CONFIG });
    await h.send({ text: "/model gpt-99" });
    expect(h.channel.transcript("dm-user-1").at(-1)).toBe(
      '"gpt-99" is not a model this agent may use. Models you can switch to: fake-model, fake-large.',
    );
    expect((await h.store.getSession("main:main:test:dm:user-1"))?.modelOverride).toBeUndefined();
    await h.close();
  });

  it("offers only the agent's own model by default: a model the catalog knows but the agent does not list is refused", async () => {
    const h = await startHarness({ script: ["on the default"] });
    await h.send({ text: "/model" });
    expect(h.channel.transcript("dm-user-1").at(-1)).toBe(
      "This chat uses fake-model. Models you can switch to: fake-model.",
    );
    await h.send({ text: "/model fake-large" });
    expect(h.channel.transcript("dm-user-1").at(-1)).toBe(
      '"fake-large" is not a model this agent may use. Models you can switch to: fake-model.',
    );
    expect((await h.store.getSession(KEY))?.modelOverride).toBeUndefined();
    await h.send({ text: "hello" });
    expect(h.streamFn.calls[0]!.model.id).toBe("fake-model");
    await h.close();
  });

  it("ignores a stored choice the agent no longer allows", async () => {
    const store = await storeWithChoice();
    expect((await store.getSession(KEY))?.modelOverride).toBe("fake-large");
    // The operator dropped fake-large from the agent's models: the chat is back on the agent's model.
    const second = await startHarness({ store, script: ["after"] });
    await second.send({ text: "still there?", messageId: "second-1" });
    expect(second.streamFn.calls[0]!.model.id).toBe("fake-model");
    await second.send({ text: "/model", messageId: "second-2" });
    expect(second.channel.transcript("dm-user-1").at(-1)).toContain("This chat uses fake-model.");
    await second.close();
  });

  describe("seed 002 Provider Preference Persistence", () => {
    it("falls back silently to the agent's model when the stored choice is no longer configured", async () => {
      const store = await storeWithChoice();
      const second = await startHarness({
        store,
        config: CONFIG,
        script: ["after"],
        gateway: { models: modelCatalog([fakeModel()]) },
      });
      await second.send({ text: "still there?", messageId: "second-1" });
      expect(second.streamFn.calls[0]!.model.id).toBe("fake-model");
      expect(second.channel.transcript("dm-user-1").at(-1)).toBe("after");
      await second.close();
    });

    it("NEVER blocks the session's start when looking the choice up fails", async () => {
      const store = await storeWithChoice();
      const failing = {
        find: (id: string) => {
          if (id === "fake-large") throw new Error("model registry unavailable");
          return id === "fake-model" ? fakeModel() : undefined;
        },
        list: () => [fakeModel()],
      };
      const second = await startHarness({ store, config: CONFIG, script: ["after"], gateway: { models: failing } });
      await second.send({ text: "still there?", messageId: "second-1" });
      expect(second.streamFn.calls[0]!.model.id).toBe("fake-model");
      expect(second.channel.transcript("dm-user-1").at(-1)).toBe("after");
      await second.send({ text: "/model", messageId: "second-2" });
      expect(second.channel.transcript("dm-user-1").at(-1)).toContain("This chat uses fake-model.");
      await second.close();
    });

    it("with modelPersistence: false a choice holds while the gateway runs and is neither stored nor restored", async () => {
      const config = {
        ...BASE_CONFIG,
        agents: [{ id: "main", model: "fake-model", models: ["fake-model", "fake-large"], modelPersistence: false }],
      };
      const store = await storeWithChoice();
      const h = await startHarness({ store, config, script: ["one", "two"] });
      await h.send({ text: "hi", messageId: "p-1" });
      // The choice stored before persistence was turned off is not restored.
      expect(h.streamFn.calls[0]!.model.id).toBe("fake-model");
      await h.send({ text: "/model fake-large", messageId: "p-2" });
      await h.send({ text: "and now?", messageId: "p-3" });
      expect(h.streamFn.calls[1]!.model.id).toBe("fake-large");
      await h.close();
      const fresh = new MemorySessionStore();
      const other = await startHarness({ store: fresh, config, script: ["x"] });
      await other.send({ text: "/model fake-large" });
      expect((await fresh.getSession(KEY))?.modelOverride).toBeUndefined();
      await other.close();
    });
  });
});
