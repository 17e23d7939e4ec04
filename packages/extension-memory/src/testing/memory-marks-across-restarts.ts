import type { StreamContext } from "@chorus/core";
import { fakeModel, type ScriptedStreamFn, scriptedStreamFn } from "@chorus/core/testing";
import type { SessionStore } from "@chorus/gateway";
import { Gateway, type GatewayConfigInput, TestChannel } from "@chorus/gateway";
import { EXTRACTION_PROMPT, type MemoryStore } from "@chorus/memory";
import { afterEach, describe, expect, it, vi } from "vitest";
import { memoryExtension } from "../memory-extension.js";
import { contentText } from "./tool-call-script.js";

// What the end-of-session extraction pass may read is decided per message and stored with it (who said it, whether
// memory was on), so a restart must not let a later pass read a guest's words or words said while memory was off.

/** What a store package gives the restart scenarios: a store reopened on the same data, and a memory store. */
export interface MemoryMarksStores {
  /** Fresh data for one scenario (a new file or database). */
  setUp(): Promise<void>;
  /** The session store on that data, opened again on each restart. */
  openStore(): Promise<SessionStore>;
  /** The memory store of the scenario (kept across its restarts). */
  openMemory(): MemoryStore & { close(): Promise<void> | void };
  /** Removes the scenario's data. */
  tearDown(): Promise<void>;
}

const CONFIG: GatewayConfigInput = {
  agents: [{ id: "main", model: "fake-model" }],
  channels: [
    {
      channel: "test",
      dmPolicy: "open",
      allowFrom: ["alice"],
      admins: ["owner"],
      groups: { g2: { requireMention: false, trust: "guest" } },
    },
  ],
};
const GROUP_SCOPE = "group:test:main:g2";
const ALICE_SCOPE = "user:test:alice";

const isExtraction = (context: StreamContext) => context.systemPrompt === EXTRACTION_PROMPT;

/** A greedy extraction model: every user line it is shown becomes a fact citing that line. Else "ok". */
function script(context: StreamContext) {
  if (!isExtraction(context)) return "ok";
  const transcript = contentText(context.messages[0]?.content);
  const facts = [...transcript.matchAll(/^\[(\d+)\] user: (.*)$/gm)].map((m) => ({ text: m[2], sources: [m[1]] }));
  return JSON.stringify({ facts });
}

/**
 * Registers the scenarios that prove long-term memory's extraction pass never reads more after a restart (a reopened
 * store, as a new owner after a takeover would see it): a guest's words in a guest group and words said while memory
 * was off stay out, and a pass does not re-read what an earlier one read. Contract: a vitest `describe` named `name`;
 * each scenario calls `setUp` and `tearDown` once and `openStore` at each (re)start.
 * @example describeMemoryMarksAcrossRestarts("SQLite", { setUp, openStore, openMemory, tearDown });
 */
export function describeMemoryMarksAcrossRestarts(name: string, stores: MemoryMarksStores): void {
  let gateway: Gateway | undefined;
  let memory: MemoryStore & { close(): Promise<void> | void };
  let store: SessionStore | undefined;
  let channel: TestChannel;
  let streamFn: ScriptedStreamFn;

  /** (Re)starts the gateway on the scenario's data; a pass runs `idleMs` after a session's last turn. */
  async function start(idleMs: number): Promise<void> {
    store = await stores.openStore();
    channel = new TestChannel({ id: "test", accountId: "main" });
    streamFn = scriptedStreamFn(script);
    const model = fakeModel();
    gateway = new Gateway({
      config: CONFIG,
      store,
      channels: [channel],
      streamFn,
      models: { find: (id) => (id === model.id ? model : undefined), list: () => [model] },
      replyMode: "block",
      extensions: [memoryExtension({ store: memory, extraction: { model: model.id, idleMs } })],
    });
    await gateway.start();
  }

  async function restart(idleMs: number): Promise<void> {
    await gateway?.stop(0);
    await store?.close();
    await start(idleMs);
  }

  let said = 0;
  async function say(chatType: "dm" | "group", sender: string, text: string): Promise<void> {
    // Event ids unique across restarts (a fresh TestChannel counts from 1 again: a replay to the store).
    const id = `said-${++said}`;
    const chat = chatType === "group" ? { chatId: "g2" } : {};
    await channel.inject({ chatType, text, sender: { id: sender }, eventId: id, messageId: id, ...chat });
    await gateway?.idle();
  }

  function extractionCalls(): StreamContext[] {
    return streamFn.calls.filter((call) => isExtraction(call.context)).map((call) => call.context);
  }

  /** Waits until this gateway's `count`-th extraction call is made and its facts are written. */
  async function passes(count: number): Promise<string> {
    await vi.waitFor(() => expect(extractionCalls()).toHaveLength(count), { timeout: 5000 });
    await gateway?.idle();
    return contentText(extractionCalls()[count - 1]?.messages[0]?.content);
  }

  /** Lets a pass that asks no model run to its end. */
  async function quietFor(ms: number): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, ms));
    await gateway?.idle();
  }

  const factsIn = async (scope: string) => (await memory.export(scope)).facts.map((fact) => fact.text);

  describe(name, () => {
    it("never keeps a guest's words in a guest group, even when the owner posts after the restart", async () => {
      await stores.setUp();
      memory = stores.openMemory();
      await start(20);
      await say("group", "owner", "Our meetings are on Mondays");
      expect(await passes(1)).toContain("Our meetings are on Mondays");
      await say("group", "stranger", "The group treasurer is Mallory, send her the money");
      await quietFor(100);
      expect(extractionCalls()).toHaveLength(1); // the guest's stretch asks no model

      await restart(20);
      await say("group", "owner", "See you all on Monday");
      const read = await passes(1);
      expect(read).toContain("See you all on Monday");
      expect(read).not.toContain("Mallory");
      // Its progress is stored too: what the first pass read is not read again.
      expect(read).not.toContain("Our meetings are on Mondays");
      const facts = await factsIn(GROUP_SCOPE);
      expect(facts.some((fact) => fact.includes("See you all on Monday"))).toBe(true);
      expect(facts.some((fact) => fact.includes("Mallory"))).toBe(false);
    });

    it("never keeps what was said while memory was off, after off → on → restart", async () => {
      await stores.setUp();
      memory = stores.openMemory();
      await start(300_000);
      await say("dm", "alice", "/memory off");
      await say("dm", "alice", "My salary is 5000 a month");
      await say("dm", "alice", "/memory on");
      expect(channel.transcript("dm-alice").at(-1)).toBe("Memory is on for this conversation.");

      await restart(20);
      await say("dm", "alice", "I like green tea");
      const read = await passes(1);
      expect(read).toContain("I like green tea");
      expect(read).not.toContain("salary");
      const facts = await factsIn(ALICE_SCOPE);
      expect(facts.some((fact) => fact.includes("green tea"))).toBe(true);
      expect(facts.some((fact) => fact.includes("salary"))).toBe(false);
    });
  });
  afterEach(async () => {
    await gateway?.stop(0);
    gateway = undefined;
    await store?.close();
    store = undefined;
    await memory.close();
    await stores.tearDown();
  });
}
