import { fakeModel, scriptedStreamFn } from "@chorus/core/testing";
import { Gateway, type GatewayLogger, type GatewayOptions, type InjectedMessage, TestChannel } from "@chorus/gateway";
import type { SessionStore } from "@chorus/store";
import { afterEach, describe, expect, it } from "vitest";
import type { ClockedStore } from "./clocked-store.js";

/** A started Gateway on a TestChannel ("test/main", DMs open) and a scripted model that answers "ok". */
interface Harness {
  channel: TestChannel;
  streamFn: ReturnType<typeof scriptedStreamFn>;
  /** Injects a message and waits until the gateway is idle. */
  send(message: InjectedMessage): Promise<void>;
  close(): Promise<void>;
}

async function startHarness(options: { store: SessionStore; gateway: Partial<GatewayOptions> }): Promise<Harness> {
  const channel = new TestChannel({ id: "test", accountId: "main" });
  const streamFn = scriptedStreamFn(() => "ok");
  const model = fakeModel();
  const gateway = new Gateway({
    config: { agents: [{ id: "main", model: model.id }], channels: [{ channel: "test", dmPolicy: "open" }] },
    store: options.store,
    channels: [channel],
    streamFn,
    models: { find: (id) => (id === model.id ? model : undefined), list: () => [model] },
    selfIds: { "test/main": "bot" },
    replyMode: "block",
    ...options.gateway,
  });
  await gateway.start();
  return {
    channel,
    streamFn,
    async send(message) {
      await channel.inject(message);
      await gateway.idle();
    },
    close: () => gateway.stop(0),
  };
}

const HOUR = 60 * 60 * 1000;

/** A logger that keeps what it is told. */
function recordingLogger(): GatewayLogger & { lines: { fields: object; message?: string }[] } {
  const lines: { fields: object; message?: string }[] = [];
  const keep = (fields: object, message?: string) => {
    lines.push({ fields, ...(message === undefined ? {} : { message }) });
  };
  return { lines, info: keep, warn: keep, error: keep };
}

/**
 * Registers the housekeeping conformance suite as a vitest `describe` named `name`: a running `Gateway` on the store
 * from `open` prunes expired event ids and old sent replies, in steps of `batchSize`, and keeps everything else.
 * Contract: every store package calls it once from a test file, beside `describeSessionStoreConformance`.
 * @example describeStoreHousekeepingConformance("MemorySessionStore", clockedMemoryStore);
 */
export function describeStoreHousekeepingConformance(name: string, open: () => ClockedStore): void {
  describe(`store housekeeping on ${name}`, () => {
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
      expect(h.channel.transcript("dm-ann")).toEqual(["ok", "ok"]);
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
}
