import { MemorySessionStore, SessionStoreError, type StoreFence } from "@chorus/store";
import { afterEach, describe, expect, it } from "vitest";
import type { HandedOffMessage, OwnershipEvent, SessionOwnership } from "../src/ownership/index.js";
import { execProbe, tryExec } from "./fixtures/exec-probe.js";
import { type Harness, startHarness } from "./fixtures/gateway-harness.js";

const KEY = "main:main:test:dm:user-1";

/** A hand-driven `SessionOwnership`: the test says which sessions are owned and sends the events. */
class FakeOwnership implements SessionOwnership {
  readonly instanceId = "test";
  readonly owned = new Set<string>();
  readonly handedOff: HandedOffMessage[] = [];
  epoch = 7;
  listener: ((event: OwnershipEvent) => void) | undefined;
  stopped = false;
  async start(listener: (event: OwnershipEvent) => void): Promise<void> {
    this.listener = listener;
  }
  fenceFor(sessionKey: string): StoreFence | undefined {
    return this.owned.has(sessionKey) ? { epoch: this.epoch } : undefined;
  }
  async handOff(message: HandedOffMessage): Promise<void> {
    this.handedOff.push(message);
  }
  async stop(): Promise<void> {
    this.stopped = true;
  }
}

function clusterStore(): { store: MemorySessionStore & { ownership: FakeOwnership }; ownership: FakeOwnership } {
  const ownership = new FakeOwnership();
  return { store: Object.assign(new MemorySessionStore(), { ownership }), ownership };
}

describe("a gateway whose store shares sessions with other instances", () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  it("stores a message for a session it does not own and wakes the owner, without running a turn", async () => {
    const { store, ownership } = clusterStore();
    h = await startHarness({ store });
    // From an admin: the owner learns the tier this instance's policy gave the message.
    await h.send({ text: "hello", sender: { id: "admin" } });
    expect(h.streamFn.calls).toHaveLength(0);
    const key = "main:main:test:dm:admin";
    expect(ownership.handedOff).toEqual([{ sessionKey: key, seq: 1, trust: "owner", senderId: "admin" }]);
    expect((await store.readTranscript(key)).map((entry) => entry.message.role)).toEqual(["user"]);
    expect(await store.listUnansweredSessions()).toHaveLength(1);
  });

  it("answers stored messages it is told about once, with the fence on the commit, however often it is told", async () => {
    const { store, ownership } = clusterStore();
    const commits: (StoreFence | undefined)[] = [];
    const commitTurn = store.commitTurn.bind(store);
    store.commitTurn = (turn) => {
      commits.push(turn.fence);
      return commitTurn(turn);
    };
    h = await startHarness({ store });
    await h.send({ text: "hello", sender: { id: "user-1" } }); // taken elsewhere: not owned yet
    ownership.owned.add(KEY);
    const session = await store.getSession(KEY);
    const unanswered = {
      session: session!,
      answeredSeq: 0,
      lastInboundSeq: 1,
      hints: new Map([[1, ownership.handedOff[0]!]]),
    };
    // The wake-up and a sweep both report it before the turn ends.
    ownership.listener?.({ type: "unanswered", sessions: [unanswered] });
    ownership.listener?.({ type: "unanswered", sessions: [unanswered] });
    await h.gateway.idle();
    expect(h.streamFn.calls).toHaveLength(1);
    expect(h.channel.transcript("dm-user-1")).toEqual(["Hello!"]);
    expect(commits.at(-1)).toEqual({ epoch: 7 });
    expect(await store.listUnansweredSessions()).toEqual([]);
  });

  it("does not run a message its own intake took again when a sweep reports it late", async () => {
    const { store, ownership } = clusterStore();
    ownership.owned.add(KEY);
    h = await startHarness({ store });
    await h.send({ text: "hello", sender: { id: "user-1" } });
    const session = await store.getSession(KEY);
    // A sweep that read the sessions before the turn's commit, reporting after it.
    ownership.listener?.({ type: "unanswered", sessions: [{ session: session!, answeredSeq: 0, lastInboundSeq: 1 }] });
    await h.gateway.idle();
    expect(h.streamFn.calls).toHaveLength(1);
    expect(ownership.handedOff).toEqual([]);
  });

  it("rebuilds a session's history from the store when it owns it again under another epoch", async () => {
    const { store, ownership } = clusterStore();
    ownership.owned.add(KEY);
    h = await startHarness({ store, script: ["first", "third"] });
    await h.send({ text: "one", sender: { id: "user-1" } });
    // The session was another instance's for a while, which answered a message there; then it came back.
    await store.appendMessages(KEY, [
      { role: "user", content: "asked elsewhere", timestamp: 2 },
      { ...((await store.readTranscript(KEY)).at(-1)?.message as object), timestamp: 3 } as never,
    ]);
    ownership.epoch = 9;
    await h.send({ text: "three", sender: { id: "user-1" } });
    const seen = JSON.stringify(h.streamFn.calls[1]?.context.messages);
    expect(seen).toContain("asked elsewhere");
  });

  it("stops a run whose commit was fenced before its tool runs: the session's new owner answers instead", async () => {
    const { store, ownership } = clusterStore();
    ownership.owned.add(KEY);
    const commitTurn = store.commitTurn.bind(store);
    store.commitTurn = (turn) =>
      turn.messages.some((message) => message.role === "assistant")
        ? Promise.reject(new SessionStoreError("fenced", "taken over"))
        : commitTurn(turn);
    const probe = execProbe();
    h = await startHarness({ store, script: tryExec, gateway: { agents: { main: { tools: [probe.tool] } } } });
    await h.send({ text: "run something", sender: { id: "user-1" } });
    expect(probe.commands).toEqual([]);
    expect(h.streamFn.calls).toHaveLength(1);
    expect(await store.listOutbox()).toEqual([]);
  });

  it("stores a message its channel takes while it stops, runs no turn for it, and leaves it for the next owner", async () => {
    const { store, ownership } = clusterStore();
    ownership.owned.add(KEY);
    h = await startHarness({ store });
    const stopping = h.gateway.stop();
    await h.channel.inject({ text: "sent during the drain", sender: { id: "user-1" } });
    await stopping;
    expect(h.streamFn.calls).toHaveLength(0);
    expect((await store.readTranscript(KEY)).map((entry) => entry.message.role)).toEqual(["user"]);
    expect((await store.listUnansweredSessions()).map((session) => session.key)).toEqual([KEY]);
    expect(ownership.stopped).toBe(true);
  });

  it("releases its ownership when it stops, after its turns", async () => {
    const { store, ownership } = clusterStore();
    h = await startHarness({ store });
    expect(ownership.listener).toBeDefined();
    await h.close();
    expect(ownership.stopped).toBe(true);
    h = await startHarness({});
  });
});
