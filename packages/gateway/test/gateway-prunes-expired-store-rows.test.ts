import { afterEach, describe, expect, it } from "vitest";
import type { GatewayLogger } from "../src/gateway/gateway-logger.js";
import { type ClockedStore, clockedMemoryStore } from "../src/testing/index.js";
import { BASE_CONFIG, chatTexts, type Harness, startHarness } from "./fixtures/gateway-harness.js";

const HOUR = 60 * 60 * 1000;

/** A logger that keeps what it is told. */
function recordingLogger(): GatewayLogger & { lines: { fields: object; message?: string }[] } {
  const lines: { fields: object; message?: string }[] = [];
  const keep = (fields: object, message?: string) => {
    lines.push({ fields, ...(message === undefined ? {} : { message }) });
  };
  return { lines, info: keep, warn: keep, error: keep };
}

// The store side of pruning (both stores) is in the conformance suite; this proves the gateway's sweep drives it.
describe("store housekeeping", () => {
  const open = clockedMemoryStore;
  let h: Harness | undefined;
  let underTest: ClockedStore | undefined;

  afterEach(async () => {
    await h?.close();
    await underTest?.cleanup();
    h = undefined;
    underTest = undefined;
  });

  it("forgets event ids past their TTL and sent replies past their retention, and keeps the rest", async () => {
    underTest = open();
    const { store, clock } = underTest;
    h = await startHarness({
      store,
      script: () => "ok",
      gateway: { now: () => clock.now, housekeeping: { intervalMs: 10 } },
    });
    await h.send({ text: "yesterday", messageId: "a", sender: { id: "ann", name: "Ann" } });
    const session = (await store.listSessions())[0]?.key ?? "";
    // A delivery still waiting (its retry is days away) is never pruned, however old.
    const [waiting] = await store.enqueueOutbox([
      {
        sessionKey: session,
        kind: "notice",
        payload: { channel: "test", accountId: "main", target: { chatType: "dm", chatId: "dm-ann" }, text: "later" },
        nextAttemptAt: clock.now + 100 * HOUR,
      },
    ]);

    clock.now += 25 * HOUR;
    await h.send({ text: "today", messageId: "b", sender: { id: "ann", name: "Ann" } });
    await expect
      .poll(async () => (await store.listOutbox()).map((entry) => [entry.id === waiting?.id, entry.status]))
      .toEqual([
        [true, "pending"],
        [false, "sent"],
      ]);
    // The sweep removed yesterday's event id: nothing is left for a manual prune.
    await expect.poll(() => store.pruneInboundEvents()).toBe(0);

    // Today's event id is still remembered: a replay of it is not answered again.
    await h.send({ text: "today", messageId: "b", sender: { id: "ann", name: "Ann" } });
    expect(chatTexts(h.channel, "dm-ann")).toEqual(["ok", "ok"]);
    expect(h.streamFn.calls).toHaveLength(2);
  });

  it("prunes a large backlog in steps of batchSize and says what it removed", async () => {
    underTest = open();
    const { store, clock } = underTest;
    for (let i = 0; i < 1200; i++) {
      await store.recordInboundEvent({ channel: "test", accountId: "main", eventId: `old-${i}` });
    }
    clock.now += 25 * HOUR;
    const steps: (number | undefined)[] = [];
    const prune = store.pruneInboundEvents.bind(store);
    store.pruneInboundEvents = (limit) => {
      steps.push(limit);
      return prune(limit);
    };
    const logger = recordingLogger();
    h = await startHarness({
      store,
      gateway: { now: () => clock.now, logger, housekeeping: { batchSize: 500 } },
    });
    await expect
      .poll(() => logger.lines.find((line) => line.message === "store housekeeping pruned old rows")?.fields)
      .toMatchObject({ inboundEvents: 1200, sentOutbox: 0 });
    // 500 + 500 + 200: the last step removed less than a batch, so the sweep ended there.
    expect(steps).toEqual([500, 500, 500]);
    expect(await prune()).toBe(0);
  });
});

it("refuses housekeeping options that are not positive integers", async () => {
  await expect(startHarness({ config: BASE_CONFIG, gateway: { housekeeping: { batchSize: 0 } } })).rejects.toThrow(
    /housekeeping\.batchSize must be a positive integer, got 0/,
  );
});
