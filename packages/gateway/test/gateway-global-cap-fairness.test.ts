import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { BusDelivery } from "../src/events/index.js";
import { FairAdmission } from "../src/lanes/fair-admission.js";
import { type Harness, startHarness } from "./fixtures/gateway-harness.js";

function maxConcurrent(events: readonly BusDelivery[]): number {
  let running = 0;
  let max = 0;
  for (const event of events) {
    if (event.type === "run_started") max = Math.max(max, ++running);
    if (event.type === "run_ended") running--;
  }
  return max;
}

describe("the global cap on concurrent turns", () => {
  let h: Harness;
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(async () => {
    await h.close();
    vi.useRealTimers();
  });

  it("admits sessions round-robin: a busy session does not starve a quiet one", async () => {
    const order: string[] = [];
    h = await startHarness({
      script: (context) => {
        const users = context.messages.filter((m) => m.role === "user");
        const last = users.at(-1)?.content;
        order.push(typeof last === "string" ? last : "?");
        return { blocks: [{ type: "text", text: "ok", delayMs: 100 }] };
      },
      config: {
        agents: [{ id: "main", model: "fake-model" }],
        channels: [{ channel: "test", dmPolicy: "open", queueMode: "followup" }],
      },
      gateway: { maxConcurrentTurns: 1 },
    });
    for (const text of ["a1", "a2", "a3"]) await h.channel.inject({ text, sender: { id: "ann", name: "Ann" } });
    await h.channel.inject({ text: "b1", sender: { id: "bob", name: "Bob" } });
    await vi.advanceTimersByTimeAsync(1000);
    await h.gateway.idle();
    expect(order).toEqual(["a1", "b1", "a2", "a3"]);
    expect(maxConcurrent(h.events)).toBe(1);
  });

  it("never runs more turns at once than the cap", async () => {
    h = await startHarness({
      script: () => ({ blocks: [{ type: "text", text: "ok", delayMs: 100 }] }),
      gateway: { maxConcurrentTurns: 2 },
    });
    for (let i = 0; i < 6; i++) await h.channel.inject({ text: "hi", sender: { id: `u${i}`, name: `U${i}` } });
    await vi.advanceTimersByTimeAsync(1000);
    await h.gateway.idle();
    expect(h.events.filter((e) => e.type === "run_ended")).toHaveLength(6);
    expect(maxConcurrent(h.events)).toBe(2);
  });
});

describe("FairAdmission", () => {
  it("rejects a cap that is not a positive integer", () => {
    expect(() => new FairAdmission(0)).toThrow(RangeError);
  });

  it("counts a release once however often it is called", () => {
    const admission = new FairAdmission(1);
    const releases: (() => void)[] = [];
    const admitted: string[] = [];
    const candidate = (name: string) => ({
      admit: (release: () => void) => {
        admitted.push(name);
        releases.push(release);
      },
    });
    admission.request(candidate("a"));
    admission.request(candidate("b"));
    admission.request(candidate("c"));
    releases[0]!();
    releases[0]!();
    expect(admitted).toEqual(["a", "b"]);
    expect(admission.active).toBe(1);
  });
});
