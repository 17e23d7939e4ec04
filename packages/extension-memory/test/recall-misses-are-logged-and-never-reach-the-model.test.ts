import type { GatewayConfigInput } from "@chorus/gateway";
import { type Harness, startHarness } from "@chorus/gateway-testing";
import { type FactHit, MEMORY_MISS_QUERY_CHARS, type NewMemoryMiss, SqliteMemoryStore } from "@chorus/memory";
import { captureTelemetry, type TelemetryCapture } from "@chorus/testkit";
import { afterEach, describe, expect, it, vi } from "vitest";
import { memoryExtension } from "../src/index.js";
import { toolCallScript } from "../src/testing/index.js";

const CONFIG: GatewayConfigInput = {
  agents: [{ id: "main", model: "fake-model" }],
  channels: [
    {
      channel: "test",
      dmPolicy: "open",
      allowFrom: ["alice", "owner"],
      admins: ["owner"],
      groups: { g1: { requireMention: false, trust: "trusted" } },
    },
  ],
};
const ALICE = { chatType: "dm" as const, sender: { id: "alice" } };
const OWNER = { chatType: "dm" as const, sender: { id: "owner" } };
// A roomy budget: these tests are about misses with no results or an error, not about a slow machine's timeouts.
const RECALL = { budgetMs: 10_000 };

/** A store whose full-text index cannot be read: every recall fails. */
class UnreadableIndexStore extends SqliteMemoryStore {
  override search(): Promise<FactHit[]> {
    return Promise.reject(new Error("fts index is corrupt"));
  }
}

/** A store whose miss writes hang until `finish()`: a slow database. */
class HangingMissLogStore extends SqliteMemoryStore {
  readonly pending: NewMemoryMiss[] = [];
  #finish: (() => void) | undefined;
  override recordMiss(miss: NewMemoryMiss): Promise<void> {
    this.pending.push(miss);
    return new Promise((resolve) => {
      this.#finish = resolve;
    });
  }
  finish(): void {
    this.#finish?.();
  }
}

let h: Harness | undefined;
let memory: SqliteMemoryStore | undefined;
let telemetry: TelemetryCapture | undefined;
afterEach(async () => {
  await h?.close();
  await memory?.close();
  await telemetry?.stop();
  h = memory = telemetry = undefined;
});

async function start(store = new SqliteMemoryStore({ path: ":memory:" })): Promise<Harness> {
  memory = store;
  h = await startHarness({
    config: CONFIG,
    script: toolCallScript("recall", "recall", "query"),
    gateway: { extensions: [memoryExtension({ store, recall: RECALL })] },
  });
  return h;
}

/** Everything the model was sent, as one text. */
function modelRequests(harness: Harness): string {
  return JSON.stringify(harness.streamFn.calls.map((call) => call.context));
}

/** The `chorus.memory.misses` data points: their attributes and values. */
async function missPoints(capture: TelemetryCapture) {
  const resource = await capture.collectMetrics();
  return resource.scopeMetrics
    .flatMap((scope) => scope.metrics)
    .filter((metric) => metric.descriptor.name === "chorus.memory.misses")
    .flatMap((metric) => metric.dataPoints.map((point) => ({ attributes: point.attributes, value: point.value })));
}

describe("recall misses", () => {
  it("a turn whose recall finds nothing logs a miss with the seed's fields and counts it; the model and the chat hear nothing of it", async () => {
    telemetry = captureTelemetry();
    const harness = await start();
    await harness.send({ ...ALICE, text: "Where did I park the car?" });

    const { misses, total } = await (memory as SqliteMemoryStore).misses("main");
    expect(total).toBe(1);
    expect(misses[0]).toEqual({
      outcome: "memory_miss",
      query: "Where did I park the car?",
      strategy: "fulltext",
      reason: "no_results",
      error: "no_results",
      sessionKey: expect.stringContaining("alice"),
      agentId: "main",
      at: expect.any(Number),
    });
    expect(harness.channel.transcript("dm-alice")).toEqual(["ok"]);
    const sent = modelRequests(harness);
    expect(sent).not.toContain("no_results");
    expect(sent).not.toContain("memory_miss");
    expect(sent).not.toContain("remembered-facts");
    expect(await missPoints(telemetry)).toEqual([
      { attributes: { "chorus.memory.outcome": "no_results", "chorus.memory.strategy": "fulltext" }, value: 1 },
    ]);
  });

  it("the recall tool's miss is logged too, and the model's tool result is the usual one", async () => {
    const harness = await start();
    await harness.send({ ...ALICE, text: "recall: locker code" });
    expect(harness.channel.transcript("dm-alice")).toEqual(["tool said: No remembered facts match."]);
    const queries = (await (memory as SqliteMemoryStore).misses("main")).misses.map((miss) => miss.query);
    // Newest first: the tool's own miss, then the recall before the turn (its query is the whole message).
    expect(queries).toEqual(["locker code", "recall: locker code"]);
    expect(modelRequests(harness)).not.toContain("no_results");
  });

  it("a miss write that does not finish never holds the reply back", async () => {
    const store = new HangingMissLogStore({ path: ":memory:" });
    const harness = await start(store);
    await harness.channel.inject({ ...ALICE, text: "Where did I park the car?" });
    await vi.waitFor(() => expect(harness.channel.transcript("dm-alice")).toEqual(["ok"]), { timeout: 5_000 });
    expect(store.pending.map((miss) => miss.query)).toEqual(["Where did I park the car?"]);
    store.finish();
    await harness.gateway.idle();
  });

  it("a failing recall logs its error, and the turn is still answered", async () => {
    telemetry = captureTelemetry();
    const harness = await start(new UnreadableIndexStore({ path: ":memory:" }));
    await harness.send({ ...ALICE, text: "What is my favourite tea?" });
    expect(harness.channel.transcript("dm-alice")).toEqual(["ok"]);
    const [miss] = (await (memory as SqliteMemoryStore).misses("main")).misses;
    expect(miss).toMatchObject({ query: "What is my favourite tea?", reason: "error", error: "fts index is corrupt" });
    expect(modelRequests(harness)).not.toContain("fts index is corrupt");
    expect(await missPoints(telemetry)).toEqual([
      { attributes: { "chorus.memory.outcome": "error", "chorus.memory.strategy": "fulltext" }, value: 1 },
    ]);
  });

  it("/memory misses shows an admin in a DM the newest misses, the query cut to 512 characters; nobody else", async () => {
    const harness = await start();
    const long = "where is my bicycle parked today ".repeat(30);
    await harness.send({ ...ALICE, text: long });
    await harness.send({ ...OWNER, text: "/memory misses" });
    const shown = harness.channel.transcript("dm-owner").at(-1) ?? "";
    expect(shown).toContain("**Recall misses of `main`** — 1");
    expect(shown).toContain(`“${long.slice(0, MEMORY_MISS_QUERY_CHARS)}”`);
    expect(shown).not.toContain(long.slice(0, MEMORY_MISS_QUERY_CHARS + 1));
    expect(shown).toContain("no results · fulltext");
    expect(shown).toContain("alice");

    await harness.send({ ...ALICE, text: "/memory misses" });
    expect(harness.channel.transcript("dm-alice").at(-1)).toBe("Only admins see memory misses.");
    await harness.send({ chatType: "group", chatId: "g1", sender: { id: "owner" }, text: "/memory misses" });
    const inGroup = harness.channel.transcript("g1").at(-1) ?? "";
    expect(inGroup).toContain("ask me for them in a DM");
    expect(inGroup).not.toContain("bicycle");
  });
});
