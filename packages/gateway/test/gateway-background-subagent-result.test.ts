import type { SessionStoreTransaction } from "@chorus/store";
import { MemorySessionStore } from "@chorus/store";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type Harness, startHarness } from "./fixtures/gateway-harness.js";
import { subagentScript } from "./fixtures/subagent-script.js";

const CONFIG = {
  agents: [{ id: "main", model: "fake-model" }],
  channels: [{ channel: "test" as const, dmPolicy: "open" as const, admins: ["user-1"] }],
};
const AGENTS = { main: { subagents: { helper: { description: "helps", tools: [] } } } };

/** A store whose next `failures` transactions that mark an outbox entry sent fail, to prove results are retried. */
class FlakyStore extends MemorySessionStore {
  failures = 0;
  override transaction<T>(fn: (tx: SessionStoreTransaction) => Promise<T> | T): Promise<T> {
    return super.transaction((tx) => {
      const flaky = new Proxy(tx, {
        get: (target, property, receiver) => {
          if (property === "markOutboxSent" && this.failures > 0) {
            this.failures--;
            return () => Promise.reject(new Error("disk full"));
          }
          const value = Reflect.get(target, property, receiver);
          return typeof value === "function" ? value.bind(target) : value;
        },
      });
      return fn(flaky);
    });
  }
}

describe("background sub-agent results", () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
    vi.useRealTimers();
  });

  it("are delivered to the parent session through the outbox and the parent continues with them", async () => {
    h = await startHarness({ config: CONFIG, script: subagentScript(), gateway: { agents: AGENTS } });
    await h.send({ text: "spawn background quick" });
    await h.gateway.idle();

    const chat = h.channel.transcript("dm-user-1");
    expect(chat.at(-1)).toBe("Parent got it: quick result");
    const results = await h.store.listOutbox({ sessionKey: "main:main:test:dm:user-1" });
    const result = results.find((entry) => entry.kind === "subagent-result");
    expect(result?.status).toBe("sent");
    const transcript = (await h.store.readTranscript("main:main:test:dm:user-1")).map((e) => e.message);
    expect(JSON.stringify(transcript)).toContain("[Background sub-agent helper");
    expect(h.events.some((event) => event.type === "subagent_completed")).toBe(true);
  });

  it("reach the parent session once when the same child's result is delivered twice", async () => {
    vi.useFakeTimers();
    h = await startHarness({
      config: CONFIG,
      script: subagentScript(),
      gateway: { agents: AGENTS, outbox: { pollMs: 100 } },
    });
    const key = "main:main:test:dm:user-1";
    await h.channel.inject({ text: "spawn background quick" });
    await vi.advanceTimersByTimeAsync(500);
    await h.gateway.idle();
    const first = (await h.store.listOutbox({ sessionKey: key })).find((entry) => entry.kind === "subagent-result");
    // The same result again (a retry whose first attempt was stored after all, or a second instance sending it).
    await h.store.enqueueOutbox([{ sessionKey: key, kind: "subagent-result", payload: first?.payload }]);
    await vi.advanceTimersByTimeAsync(500);
    await h.gateway.idle();

    const results = (await h.store.listOutbox({ sessionKey: key })).filter((e) => e.kind === "subagent-result");
    expect(results.map((entry) => entry.status)).toEqual(["sent", "sent"]);
    const transcript = JSON.stringify(await h.store.readTranscript(key));
    expect(transcript.split("[Background sub-agent").length - 1).toBe(1);
    expect(h.channel.transcript("dm-user-1").filter((text) => text.startsWith("Parent got it"))).toHaveLength(1);
  });

  it("are retried until delivered when storing them fails", async () => {
    vi.useFakeTimers();
    const store = new FlakyStore();
    h = await startHarness({
      config: CONFIG,
      script: subagentScript(),
      store,
      gateway: { agents: AGENTS, outbox: { pollMs: 100, baseRetryMs: 100 } },
    });
    store.failures = 2;
    await h.channel.inject({ text: "spawn background quick" });
    await vi.advanceTimersByTimeAsync(2000);
    await h.gateway.idle();
    const entry = (await store.listOutbox()).find((e) => e.kind === "subagent-result");
    expect(entry?.status).toBe("sent");
    expect(entry?.attempts).toBeGreaterThanOrEqual(3);
    expect(h.events.filter((e) => e.type === "delivery_failed").length).toBeGreaterThanOrEqual(2);
    // The failed attempts rolled back: the result is in the parent's transcript once.
    const transcript = JSON.stringify(await store.readTranscript("main:main:test:dm:user-1"));
    expect(transcript.split("[Background sub-agent").length - 1).toBe(1);
    expect(h.channel.transcript("dm-user-1").at(-1)).toBe("Parent got it: quick result");
  });
});
