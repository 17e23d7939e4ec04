import type { StreamContext } from "@chorus/core";
import { fakeModel, scriptedStreamFn } from "@chorus/core/testing";
import { Gateway, TestChannel } from "@chorus/gateway";
import { describe, expect, it, vi } from "vitest";
import { PostgresSessionStore } from "../src/index.js";
import {
  type ClusterMember,
  heldShards,
  saidInDm,
  senderOwnedBy,
  sessionKeyOf,
  stopOnce,
} from "./fixtures/cluster-member.js";
import { databaseBehindAGate } from "./fixtures/database-behind-a-gate.js";

const { gate, url } = await databaseBehindAGate();

const model = fakeModel();
// Each waiting message its own turn, in order (the default, `steer`, puts a message sent during a turn into it).
const config = {
  agents: [{ id: "main", model: model.id }],
  channels: [{ channel: "test", dmPolicy: "open" as const, queueMode: "followup" as const }],
};

/** The text of the user messages a model call saw, oldest first. */
function userTexts(context: StreamContext): string[] {
  return context.messages.flatMap((message) =>
    message.role !== "user"
      ? []
      : [
          typeof message.content === "string"
            ? message.content
            : message.content.map((part) => ("text" in part ? part.text : "")).join(""),
        ],
  );
}

interface Instance extends ClusterMember {
  readonly model: ReturnType<typeof scriptedStreamFn>;
  /** Injects a message from `sender`, unique event id; resolves once it is taken (not answered). */
  inject(sender: string, text: string): Promise<void>;
  stop(): Promise<void>;
}

let events = 0;

async function instance(name: string, throughGate: boolean): Promise<Instance> {
  const store = await PostgresSessionStore.open({
    url: url(throughGate),
    schema: "back_to_back",
    connectTimeoutMs: 1000,
    queryTimeoutMs: 2000,
    cluster: { instanceId: name, leaseMs: 1500, sweepMs: 1000 },
    onWarning: () => {},
  });
  const channel = new TestChannel({ id: "test", accountId: "main" });
  // An echo model: every answer names the message it answers (the last one of its context).
  const streamFn = scriptedStreamFn((context) => `echo: ${userTexts(context).at(-1)}`);
  const gateway = new Gateway({
    config,
    store,
    channels: [channel],
    streamFn,
    models: { find: (id) => (id === model.id ? model : undefined), list: () => [model] },
    selfIds: { "test/main": "bot" },
    replyMode: "block",
    outbox: { pollMs: 200 },
  });
  await gateway.start();
  return {
    name,
    store,
    gateway,
    channel,
    model: streamFn,
    async inject(sender, text) {
      const eventId = `evt-${++events}`;
      await channel.inject({ text, sender: { id: sender }, messageId: eventId, eventId });
    },
    stop: stopOnce(gateway, store),
  };
}

describe("a session taken over with several stored, unanswered messages (queueMode followup)", () => {
  it("answers each message once, in order, each turn's history ending at the message it answers", async () => {
    const a = await instance("a", true);
    const b = await instance("b", false);
    try {
      await vi.waitFor(() => expect([heldShards(a) > 0, heldShards(b) > 0]).toEqual([true, true]), { timeout: 5000 });
      const ofA = senderOwnedBy(a, "ann");
      const key = sessionKeyOf(a.gateway, ofA);
      await b.inject(ofA, "hello");
      await vi.waitFor(() => expect(saidInDm([a, b], ofA)).toEqual(["echo: hello"]), { timeout: 5000 });
      // Its send recorded too (else b resends it, marked, after the takeover: by design, not what this test is about).
      await vi.waitFor(
        async () => expect((await a.store.listOutbox()).map((entry) => entry.status)).toEqual(["sent"]),
        {
          timeout: 5000,
        },
      );

      // b's read of the stored, unanswered messages at a takeover is slow (a loaded machine): a message its own intake
      // takes meanwhile must still wait for them.
      const read = b.store.readTranscript.bind(b.store);
      b.store.readTranscript = async (sessionKey, options) => {
        if (options?.fromSeq !== undefined) await new Promise((resolve) => setTimeout(resolve, 300));
        return read(sessionKey, options);
      };
      // a is cut off: b stores three messages sent back to back (a cannot hear the wake-ups) ...
      gate.shut();
      for (const text of ["msg-1", "msg-2", "msg-3"]) await b.inject(ofA, text);
      // ... and the fourth arrives at b the moment it has taken a's sessions over, while it takes up the stored ones.
      while (b.store.ownership?.fenceFor(key) === undefined) await new Promise((resolve) => setTimeout(resolve, 1));
      await b.inject(ofA, "msg-4");

      const wanted = ["echo: hello", "echo: msg-1", "echo: msg-2", "echo: msg-3", "echo: msg-4"];
      await vi.waitFor(() => expect(saidInDm([a, b], ofA)).toHaveLength(wanted.length), { timeout: 10_000 });
      await b.gateway.idle();
      expect(saidInDm([a, b], ofA)).toEqual(wanted);
      // Each of b's turns saw the messages before it as answered history and ended at its own message.
      const seen = b.model.calls.map((call) => userTexts(call.context as StreamContext));
      expect(seen).toEqual([
        ["hello", "msg-1"],
        ["hello", "msg-1", "msg-2"],
        ["hello", "msg-1", "msg-2", "msg-3"],
        ["hello", "msg-1", "msg-2", "msg-3", "msg-4"],
      ]);
      expect(await b.store.listUnansweredSessions()).toEqual([]);
    } finally {
      gate.open();
      await a.stop();
      await b.stop();
    }
  });
});
