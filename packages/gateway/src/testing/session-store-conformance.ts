import type { AgentMessage, Usage } from "@chorus/core";
import { assistantText, toolResult, userMessage } from "@chorus/core/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PairingService } from "../policy/index.js";
import { MEMORY_OFF_SETTING } from "../store/memory-mark.js";
import type { SessionStore } from "../store/session-store.js";
import { SessionStoreError } from "../store/session-store-error.js";
import type { NewSession, ScheduleRecord } from "../store/store-types.js";
import { describeClaimOnCommit } from "./claim-on-commit-conformance.js";
import type { ClockedStore } from "./clocked-store.js";
import { describeSpendLedger } from "./spend-ledger-conformance.js";
import { describeTraceLinks } from "./trace-links-conformance.js";

type Harness = ClockedStore;

const HOUR = 60 * 60 * 1000;

function dmSession(key = "main:bot:telegram:dm:42", agentId = "main"): NewSession {
  return { key, agentId, channel: "telegram", accountId: "bot", chatId: "42" };
}

function usage(tokens: number, cost: number): Usage {
  return {
    input: tokens,
    output: 0,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: tokens,
    cost: { input: cost, output: 0, cacheRead: 0, cacheWrite: 0, total: cost },
  };
}

async function rejection(promise: Promise<unknown>): Promise<SessionStoreError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof SessionStoreError) return error;
    throw error;
  }
  throw new Error("expected the call to reject");
}

/**
 * Registers the SessionStore conformance suite (sessions, transcripts, runs, inbound dedupe and messages, outbox,
 * pairing, turns and transactions, trace links, close) as a vitest `describe` named `name`, on a fresh store from `open` per test.
 * Contract: every store package calls it once from a test file; a store that passes behaves as the gateway expects.
 * @example describeSessionStoreConformance("MemorySessionStore", () => clockedMemoryStore());
 */
export function describeSessionStoreConformance(name: string, open: () => ClockedStore): void {
  describe(name, () => {
    describeStoreContract(open);
    describeClaimOnCommit(open);
    describeSpendLedger(open);
    describeTraceLinks(open);
  });
}

function describeStoreContract(makeHarness: () => ClockedStore): void {
  let h: Harness;
  let store: SessionStore;

  beforeEach(() => {
    h = makeHarness();
    store = h.store;
  });

  afterEach(async () => {
    await h.cleanup();
  });

  describe("sessions", () => {
    it("creates a session once and never overwrites it", async () => {
      const first = await store.ensureSession({ ...dmSession(), title: "Trip planning" });
      expect(first.created).toBe(true);
      expect(first.session).toEqual({
        ...dmSession(),
        title: "Trip planning",
        settings: {},
        createdAt: h.clock.now,
        updatedAt: h.clock.now,
        lastSeq: 0,
        transcriptStartSeq: 1,
      });
      h.clock.now += 1000;
      const second = await store.ensureSession({ ...dmSession(), title: "Something else" });
      expect(second.created).toBe(false);
      expect(second.session).toEqual(first.session);
    });

    it("applies patches: null clears a field, settings are replaced, updatedAt moves", async () => {
      await store.ensureSession({ ...dmSession(), title: "Old", settings: { activation: "mention" } });
      h.clock.now += 5000;
      const updated = await store.updateSession(dmSession().key, {
        title: null,
        modelOverride: "claude-opus",
        queueModeOverride: "collect",
        settings: { verbose: true, tags: ["a", "b"] },
      });
      expect(updated.title).toBeUndefined();
      expect("title" in updated).toBe(false);
      expect(updated.modelOverride).toBe("claude-opus");
      expect(updated.queueModeOverride).toBe("collect");
      expect(updated.settings).toEqual({ verbose: true, tags: ["a", "b"] });
      expect(updated.updatedAt).toBe(h.clock.now);
      expect(await store.getSession(dmSession().key)).toEqual(updated);
      const kept = await store.updateSession(dmSession().key, { title: "New" });
      expect(kept.modelOverride).toBe("claude-opus");
      expect(kept.title).toBe("New");
    });

    it("rejects updates of an unknown session with not-found", async () => {
      const error = await rejection(store.updateSession("nope", { title: "x" }));
      expect(error.code).toBe("not-found");
      expect(await store.getSession("nope")).toBeUndefined();
    });

    it("lists sessions per agent, most recently updated first, with a limit", async () => {
      await store.ensureSession(dmSession("a", "main"));
      h.clock.now += 1;
      await store.ensureSession(dmSession("b", "main"));
      h.clock.now += 1;
      await store.ensureSession(dmSession("c", "helper"));
      h.clock.now += 1;
      await store.appendMessages("a", [userMessage("wake up")]);
      expect((await store.listSessions({ agentId: "main" })).map((s) => s.key)).toEqual(["a", "b"]);
      expect((await store.listSessions()).map((s) => s.key)).toEqual(["a", "c", "b"]);
      expect((await store.listSessions({ limit: 1 })).map((s) => s.key)).toEqual(["a"]);
    });

    it("deletes a session with its transcript", async () => {
      await store.ensureSession(dmSession());
      await store.appendMessages(dmSession().key, [userMessage("hi")]);
      expect(await store.deleteSession(dmSession().key)).toBe(true);
      expect(await store.deleteSession(dmSession().key)).toBe(false);
      expect(await store.getSession(dmSession().key)).toBeUndefined();
      expect(await store.readTranscript(dmSession().key)).toEqual([]);
    });
  });

  describe("transcripts", () => {
    it("appends with increasing seqs and reads the whole transcript back in order", async () => {
      const key = dmSession().key;
      await store.ensureSession(dmSession());
      const turn1: AgentMessage[] = [userMessage("What is 2+2?"), assistantText("4")];
      const turn2: AgentMessage[] = [userMessage("And 3+3? 🙂"), assistantText("6")];
      expect(await store.appendMessages(key, turn1)).toEqual({ firstSeq: 1, lastSeq: 2 });
      expect(await store.appendMessages(key, turn2)).toEqual({ firstSeq: 3, lastSeq: 4 });
      const entries = await store.readTranscript(key);
      expect(entries.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
      expect(entries.map((e) => e.message)).toEqual([...turn1, ...turn2]);
      expect((await store.getSession(key))?.lastSeq).toBe(4);
      expect((await store.readTranscript(key, { fromSeq: 3 })).map((e) => e.seq)).toEqual([3, 4]);
    });

    it("keeps what was appended even if the caller later mutates its objects", async () => {
      await store.ensureSession(dmSession());
      const message = userMessage("original");
      await store.appendMessages(dmSession().key, [message]);
      message.content = "changed";
      const [entry] = await store.readTranscript(dmSession().key);
      expect(entry?.message).toMatchObject({ content: "original" });
    });

    it("refuses to append to an unknown session or a message that is not JSON, and writes nothing", async () => {
      expect((await rejection(store.appendMessages("missing", [userMessage("x")]))).code).toBe("not-found");
      await store.ensureSession(dmSession());
      const bad = { ...userMessage("x"), content: 10n } as unknown as AgentMessage;
      const error = await rejection(store.appendMessages(dmSession().key, [userMessage("ok"), bad]));
      expect(error.code).toBe("invalid-input");
      expect(await store.readTranscript(dmSession().key)).toEqual([]);
      expect((await store.getSession(dmSession().key))?.lastSeq).toBe(0);
    });

    it("starts afresh on reset without deleting history or reusing seqs", async () => {
      const key = dmSession().key;
      await store.ensureSession(dmSession());
      await store.appendMessages(key, [userMessage("old 1"), assistantText("old 2")]);
      const reset = await store.resetTranscript(key);
      expect(reset.transcriptStartSeq).toBe(3);
      expect(await store.readTranscript(key)).toEqual([]);
      await store.appendMessages(key, [userMessage("new")]);
      expect((await store.readTranscript(key)).map((e) => e.seq)).toEqual([3]);
      expect((await store.readTranscript(key, { fromSeq: 1 })).map((e) => e.seq)).toEqual([1, 2, 3]);
      expect((await rejection(store.resetTranscript("missing"))).code).toBe("not-found");
    });

    it("reads an unknown session's transcript as empty", async () => {
      expect(await store.readTranscript("never-seen")).toEqual([]);
    });
  });

  describe("runs", () => {
    it("derives depth from the parent chain and refuses duplicates and unknown parents", async () => {
      const root = await store.startRun({ id: "r1", sessionKey: "s", agentId: "main" });
      const child = await store.startRun({ id: "r2", sessionKey: "s:sub", agentId: "main", parentRunId: "r1" });
      const grandchild = await store.startRun({
        id: "r3",
        sessionKey: "s:sub:sub",
        agentId: "main",
        parentRunId: "r2",
      });
      expect([root.depth, child.depth, grandchild.depth]).toEqual([0, 1, 2]);
      expect(root).toEqual({
        id: "r1",
        sessionKey: "s",
        depth: 0,
        agentId: "main",
        status: "running",
        startedAt: h.clock.now,
        usage: usage(0, 0),
      });
      expect(grandchild.parentRunId).toBe("r2");
      expect((await rejection(store.startRun({ id: "r1", sessionKey: "s", agentId: "main" }))).code).toBe("conflict");
      const orphan = store.startRun({ id: "r9", sessionKey: "s", agentId: "main", parentRunId: "ghost" });
      expect((await rejection(orphan)).code).toBe("not-found");
    });

    it("records usage, ends a run once, and refuses changes to an ended run", async () => {
      await store.startRun({ id: "r1", sessionKey: "s", agentId: "main" });
      const running = await store.updateRun("r1", { usage: usage(120, 0.01) });
      expect(running.status).toBe("running");
      expect(running.usage.totalTokens).toBe(120);
      h.clock.now += 2500;
      const ended = await store.updateRun("r1", {
        status: "failed",
        error: "model overloaded",
        usage: usage(150, 0.02),
      });
      expect(ended).toMatchObject({ status: "failed", endedAt: h.clock.now, error: "model overloaded" });
      expect(ended.usage.cost.total).toBe(0.02);
      expect((await rejection(store.updateRun("r1", { status: "completed" }))).code).toBe("invalid-state");
      expect((await rejection(store.updateRun("nope", { status: "completed" }))).code).toBe("not-found");
      expect(await store.getRun("r1")).toEqual(ended);
    });

    it("returns a run's usage detached from the caller's, and keeps it when a patch has none", async () => {
      await store.startRun({ id: "r1", sessionKey: "s", agentId: "main" });
      const given = usage(120, 0.01);
      const running = await store.updateRun("r1", { usage: given });
      given.totalTokens = 999;
      expect(running.usage).toEqual(usage(120, 0.01));
      const ended = await store.updateRun("r1", { status: "completed", error: "late" });
      expect(ended.usage).toEqual(usage(120, 0.01));
      expect(structuredClone(ended)).toEqual(await store.getRun("r1"));
    });

    it("lists runs by status, session and parent, oldest first", async () => {
      await store.startRun({ id: "a", sessionKey: "s1", agentId: "main" });
      h.clock.now += 1;
      await store.startRun({ id: "b", sessionKey: "s1:sub", agentId: "main", parentRunId: "a" });
      h.clock.now += 1;
      await store.startRun({ id: "c", sessionKey: "s2", agentId: "helper" });
      await store.updateRun("c", { status: "completed" });
      expect((await store.listRuns({ status: "running" })).map((r) => r.id)).toEqual(["a", "b"]);
      expect((await store.listRuns({ status: ["completed", "failed"] })).map((r) => r.id)).toEqual(["c"]);
      expect((await store.listRuns({ parentRunId: "a" })).map((r) => r.id)).toEqual(["b"]);
      expect((await store.listRuns({ agentId: "helper" })).map((r) => r.id)).toEqual(["c"]);
      expect((await store.listRuns({ sessionKey: "s1", limit: 5 })).map((r) => r.id)).toEqual(["a"]);
      expect((await store.listRuns()).map((r) => r.id)).toEqual(["a", "b", "c"]);
    });

    it("marks runs left running as interrupted at recovery, and only those", async () => {
      await store.startRun({ id: "done", sessionKey: "s", agentId: "main" });
      await store.updateRun("done", { status: "completed" });
      await store.startRun({ id: "live", sessionKey: "s", agentId: "main" });
      await store.startRun({ id: "live-child", sessionKey: "s:sub", agentId: "main", parentRunId: "live" });
      const interrupted = await store.interruptRunningRuns("gateway restarted");
      expect(interrupted.map((r) => [r.id, r.status, r.error])).toEqual([
        ["live", "interrupted", "gateway restarted"],
        ["live-child", "interrupted", "gateway restarted"],
      ]);
      expect(await store.listRuns({ status: "running" })).toEqual([]);
      expect((await store.getRun("done"))?.status).toBe("completed");
    });

    it("keeps a sub-agent run's spawn settings through start, listing, update and interruption", async () => {
      const spawn = { label: "research", timeoutSeconds: 900, trustTier: "owner" as const };
      await store.startRun({ id: "root", sessionKey: "s", agentId: "main" });
      const started = await store.startRun({
        id: "kid",
        sessionKey: "s:sub",
        agentId: "helper",
        parentRunId: "root",
        spawn,
      });
      expect(started.spawn).toEqual(spawn);
      expect((await store.getRun("kid"))?.spawn).toEqual(spawn);
      expect((await store.listRuns({ parentRunId: "root" })).map((run) => run.spawn)).toEqual([spawn]);
      expect((await store.updateRun("kid", { error: "slow" })).spawn).toEqual(spawn);
      const [interrupted] = (await store.interruptRunningRuns()).filter((run) => run.id === "kid");
      expect(interrupted?.spawn).toEqual(spawn);
      // A run started without them has none.
      expect(await store.getRun("root")).not.toHaveProperty("spawn");
    });
  });

  describe("inbound event dedupe", () => {
    it("reports an event id as new once within the TTL, per channel and account", async () => {
      const ref = { channel: "discord", accountId: "bot", eventId: "m-1" };
      expect(await store.recordInboundEvent(ref)).toBe(true);
      expect(await store.recordInboundEvent(ref)).toBe(false);
      expect(await store.recordInboundEvent({ ...ref, accountId: "other-bot" })).toBe(true);
      expect(await store.recordInboundEvent({ ...ref, channel: "slack" })).toBe(true);
      h.clock.now += 23 * HOUR;
      expect(await store.recordInboundEvent(ref)).toBe(false);
    });

    it("forgets ids after 24 hours and prunes them", async () => {
      const old = { channel: "telegram", accountId: "bot", eventId: "u-1" };
      await store.recordInboundEvent(old);
      h.clock.now += 12 * HOUR;
      await store.recordInboundEvent({ ...old, eventId: "u-2" });
      h.clock.now += 12 * HOUR;
      expect(await store.pruneInboundEvents()).toBe(1);
      expect(await store.recordInboundEvent({ ...old, eventId: "u-2" })).toBe(false);
      expect(await store.recordInboundEvent(old)).toBe(true);
    });

    it("prunes in steps of at most `limit`, by when each id was last seen", async () => {
      const ref = (eventId: string) => ({ channel: "telegram", accountId: "bot", eventId });
      await store.recordInboundEvent(ref("a"));
      await store.recordInboundEvent(ref("b"));
      await store.recordInboundEvent(ref("c"));
      h.clock.now += 20 * HOUR;
      await store.recordInboundEvent(ref("d"));
      h.clock.now += 5 * HOUR;
      // "a" comes again after its TTL: it counts from now, and only "b" and "c" are left to prune.
      expect(await store.recordInboundEvent(ref("a"))).toBe(true);
      expect(await store.pruneInboundEvents(1)).toBe(1);
      expect(await store.pruneInboundEvents(5)).toBe(1);
      expect(await store.pruneInboundEvents(5)).toBe(0);
      expect(await store.recordInboundEvent(ref("a"))).toBe(false);
      expect(await store.recordInboundEvent(ref("d"))).toBe(false);
      expect((await rejection(store.pruneInboundEvents(0))).code).toBe("invalid-input");
    });
  });

  describe("inbound messages", () => {
    const event = { channel: "telegram", accountId: "bot", eventId: "u-7" };

    it("records the event id, creates the session and appends the message in one call", async () => {
      const stored = await store.storeInboundMessage({ event, session: dmSession(), message: userMessage("hi") });
      expect(stored).toEqual({
        session: {
          ...dmSession(),
          settings: {},
          createdAt: h.clock.now,
          updatedAt: h.clock.now,
          lastSeq: 0,
          transcriptStartSeq: 1,
        },
        created: true,
        seq: 1,
      });
      const next = await store.storeInboundMessage({
        event: { ...event, eventId: "u-8" },
        session: dmSession(),
        message: userMessage("again"),
      });
      expect(next).toMatchObject({ created: false, seq: 2, session: { lastSeq: 1 } });
      expect((await store.readTranscript(dmSession().key)).map((entry) => entry.seq)).toEqual([1, 2]);
      expect(await store.recordInboundEvent(event)).toBe(false);
    });

    it("drops a replayed event id and writes nothing", async () => {
      await store.storeInboundMessage({ event, session: dmSession(), message: userMessage("hi") });
      const replay = await store.storeInboundMessage({
        event,
        session: dmSession("other-session"),
        message: userMessage("hi"),
      });
      expect(replay).toBeUndefined();
      expect(await store.getSession("other-session")).toBeUndefined();
      expect(await store.readTranscript(dmSession().key)).toHaveLength(1);
    });

    it("rejects a message that is not JSON and leaves the event id unrecorded, so a replay is handled", async () => {
      const cyclic: Record<string, unknown> = { role: "user" };
      cyclic.self = cyclic;
      const bad = store.storeInboundMessage({
        event,
        session: dmSession(),
        message: cyclic as unknown as AgentMessage,
      });
      expect((await rejection(bad)).code).toBe("invalid-input");
      expect(await store.getSession(dmSession().key)).toBeUndefined();
      const replay = await store.storeInboundMessage({ event, session: dmSession(), message: userMessage("hi") });
      expect(replay?.seq).toBe(1);
    });

    it("reports a session whose inbound message no commit has answered, until one does", async () => {
      const key = dmSession().key;
      expect(await store.listUnansweredSessions()).toEqual([]);
      await store.storeInboundMessage({ event, session: dmSession(), message: userMessage("first") });
      expect((await store.listUnansweredSessions()).map((s) => s.key)).toEqual([key]);
      // An assistant message alone (no answersSeq) answers nothing; a commit that answers seq 1 does.
      await store.appendMessages(key, [assistantText("thinking")]);
      expect((await store.listUnansweredSessions()).map((s) => s.key)).toEqual([key]);
      await store.commitTurn({ sessionKey: key, messages: [assistantText("done")], answersSeq: 1 });
      expect(await store.listUnansweredSessions()).toEqual([]);
      // A later message waits again; an empty commit can answer it too.
      await store.storeInboundMessage({
        event: { ...event, eventId: "u-9" },
        session: dmSession(),
        message: userMessage("second"),
      });
      expect((await store.listUnansweredSessions()).map((s) => s.key)).toEqual([key]);
      await store.commitTurn({ sessionKey: key, messages: [], answersSeq: (await store.getSession(key))!.lastSeq });
      expect(await store.listUnansweredSessions()).toEqual([]);
    });

    it("does not report messages from before the transcript start (/new), nor a deleted session", async () => {
      await store.storeInboundMessage({ event, session: dmSession(), message: userMessage("old") });
      await store.resetTranscript(dmSession().key);
      expect(await store.listUnansweredSessions()).toEqual([]);
      await store.storeInboundMessage({
        event: { ...event, eventId: "u-10" },
        session: dmSession("other"),
        message: userMessage("hi"),
      });
      await store.deleteSession("other");
      expect(await store.listUnansweredSessions()).toEqual([]);
    });

    it("keeps each message's memory mark: its sender's tier, or off while the session's memory is off", async () => {
      const key = dmSession().key;
      const say = (eventId: string, text: string, memoryTier?: "owner" | "trusted" | "guest") =>
        store.storeInboundMessage({
          event: { ...event, eventId },
          session: dmSession(),
          message: userMessage(text),
          ...(memoryTier === undefined ? {} : { memoryTier }),
        });
      await say("m-1", "from the owner", "owner");
      await say("m-2", "from a guest", "guest");
      await store.updateSession(key, { settings: { [MEMORY_OFF_SETTING.key]: MEMORY_OFF_SETTING.value } });
      await say("m-3", "while memory is off", "trusted");
      await store.updateSession(key, { settings: {} });
      await say("m-4", "on again", "trusted");
      await say("m-5", "no tier given");
      await store.commitTurn({ sessionKey: key, messages: [assistantText("noted")], answersSeq: 5 });
      const marks = (await store.readTranscript(key)).map((entry) => [entry.seq, entry.memory]);
      expect(marks).toEqual([
        [1, "owner"],
        [2, "guest"],
        [3, "off"],
        [4, "trusted"],
        [5, undefined],
        [6, undefined],
      ]);
      expect((await store.readTranscript(key, { fromSeq: 3 }))[0]?.memory).toBe("off");
    });

    it("keeps how far memory extraction has read, only ever raising it", async () => {
      const key = dmSession().key;
      await store.ensureSession(dmSession());
      expect((await store.getSession(key))?.memoryExtractedSeq).toBeUndefined();
      expect((await store.updateSession(key, { memoryExtractedSeq: 4 })).memoryExtractedSeq).toBe(4);
      await store.updateSession(key, { memoryExtractedSeq: 2 });
      await store.updateSession(key, { title: "renamed" });
      expect(await store.getSession(key)).toMatchObject({ memoryExtractedSeq: 4, title: "renamed" });
    });

    it("keeps the waiting mark out of a transaction that rolls back", async () => {
      await store.ensureSession(dmSession());
      const failed = store.transaction(async (tx) => {
        await tx.storeInboundMessage({ event, session: dmSession(), message: userMessage("hi") });
        throw new Error("changed my mind");
      });
      await expect(failed).rejects.toThrow("changed my mind");
      expect(await store.listUnansweredSessions()).toEqual([]);
    });
  });

  describe("outbox", () => {
    const reply = { sessionKey: "s", runId: "r1", kind: "reply" as const, payload: { text: "Hello!" } };

    it("moves an entry pending → in-flight → sent, exactly once", async () => {
      const [entry] = await store.enqueueOutbox([reply]);
      expect(entry).toEqual({
        id: entry?.id,
        ...reply,
        status: "pending",
        attempts: 0,
        createdAt: h.clock.now,
        updatedAt: h.clock.now,
        nextAttemptAt: h.clock.now,
        platformMessageIds: [],
      });
      const id = entry?.id ?? -1;
      const claimed = await store.claimOutboxEntry(id);
      expect(claimed).toMatchObject({ status: "in-flight", attempts: 1 });
      expect(await store.claimOutboxEntry(id)).toBeUndefined();
      const sent = await store.markOutboxSent(id, ["msg-1", "msg-2"]);
      expect(sent).toMatchObject({
        status: "sent",
        platformMessageIds: ["msg-1", "msg-2"],
        payload: { text: "Hello!" },
      });
      expect((await rejection(store.markOutboxSent(id, ["again"]))).code).toBe("invalid-state");
      expect(await store.claimOutboxEntry(id)).toBeUndefined();
      expect(await store.getOutboxEntry(id)).toEqual(sent);
    });

    it("returns entries detached from the caller's payload, as JSON round trips", async () => {
      const payload: { text: string; extra?: undefined } = { text: "Hello!", extra: undefined };
      await store.ensureSession({ ...dmSession(), key: "s" });
      const [entry] = await store.enqueueOutbox([{ ...reply, payload }]);
      const [claimed] = (
        await store.commitTurn({ sessionKey: "s", messages: [], outbox: [{ ...reply, payload }], claimOutbox: true })
      ).outbox;
      payload.text = "changed";
      expect(entry?.payload).toEqual({ text: "Hello!" });
      expect(Object.keys(entry?.payload as object)).toEqual(["text"]);
      expect(claimed).toMatchObject({ status: "in-flight", attempts: 1, payload: { text: "Hello!" } });
      const sent = await store.markOutboxSent(claimed?.id ?? -1, ["m-1"]);
      expect(structuredClone(sent)).toEqual(await store.getOutboxEntry(claimed?.id ?? -1));
    });

    it("retries a failed send at its next attempt time, or keeps it as failed when given up", async () => {
      const [a, b] = await store.enqueueOutbox([reply, { ...reply, payload: { text: "second" } }]);
      const ids = [a?.id ?? -1, b?.id ?? -1] as const;
      expect((await store.claimDueOutbox(10)).map((e) => e.id)).toEqual([...ids]);
      const retry = await store.markOutboxFailed(ids[0], {
        error: "429 Too Many Requests",
        retryAt: h.clock.now + 20_000,
      });
      expect(retry).toMatchObject({ status: "pending", lastError: "429 Too Many Requests", attempts: 1 });
      const dead = await store.markOutboxFailed(ids[1], { error: "chat not found" });
      expect(dead).toMatchObject({ status: "failed", lastError: "chat not found" });
      expect(await store.claimDueOutbox(10)).toEqual([]);
      h.clock.now += 20_000;
      const again = await store.claimDueOutbox(10);
      expect(again.map((e) => [e.id, e.attempts])).toEqual([[ids[0], 2]]);
      expect((await store.listOutbox({ status: "failed" })).map((e) => e.id)).toEqual([ids[1]]);
      expect((await rejection(store.markOutboxFailed(ids[1], { error: "x" }))).code).toBe("invalid-state");
    });

    it("reclaims an entry left in flight once its claim is older than the bound, and only when asked", async () => {
      // A sender whose write after the send was lost (a database blip) leaves the entry in-flight for good otherwise.
      const [stuck, fresh] = await store.enqueueOutbox([reply, { ...reply, payload: { text: "second" } }]);
      expect((await store.claimDueOutbox(1)).map((e) => e.id)).toEqual([stuck?.id]);
      h.clock.now += 30_000;
      expect((await store.claimDueOutbox(1)).map((e) => e.id)).toEqual([fresh?.id]);
      expect(await store.claimDueOutbox(10)).toEqual([]);
      expect(await store.claimDueOutbox(10, { reclaimInFlightAfterMs: 60_000 })).toEqual([]);
      h.clock.now += 30_000;
      const reclaimed = await store.claimDueOutbox(10, { reclaimInFlightAfterMs: 60_000 });
      expect(reclaimed.map((e) => [e.id, e.status, e.attempts])).toEqual([[stuck?.id, "in-flight", 2]]);
      expect(reclaimed[0]?.lastError).toMatch(/^outcome unknown/);
      // The reclaim is a claim of its own: the bound counts again from now, and the entry settles as usual.
      expect(await store.claimDueOutbox(10, { reclaimInFlightAfterMs: 60_000 })).toEqual([]);
      expect(await store.markOutboxSent(stuck?.id ?? -1, ["m-1"])).toMatchObject({ status: "sent" });
    });

    it("claims due entries oldest first, up to the limit", async () => {
      const entries = await store.enqueueOutbox([
        reply,
        { ...reply, payload: 2 },
        { ...reply, payload: 3, nextAttemptAt: h.clock.now + 60_000 },
      ]);
      const claimed = await store.claimDueOutbox(1);
      expect(claimed.map((e) => e.id)).toEqual([entries[0]?.id]);
      expect((await store.claimDueOutbox(5)).map((e) => e.payload)).toEqual([2]);
      expect((await store.listOutbox({ status: ["pending", "in-flight"] })).map((e) => e.status)).toEqual([
        "in-flight",
        "in-flight",
        "pending",
      ]);
    });

    it("requeues entries left in flight by a crash, keeping their attempt counts", async () => {
      const [a, b] = await store.enqueueOutbox([reply, { ...reply, sessionKey: "other" }]);
      await store.claimOutboxEntry(a?.id ?? -1);
      h.clock.now += 1000;
      const requeued = await store.requeueInFlightOutbox();
      expect(requeued.map((e) => [e.id, e.status, e.attempts, e.nextAttemptAt])).toEqual([
        [a?.id, "pending", 1, h.clock.now],
      ]);
      expect((await store.listOutbox({ sessionKey: "other" })).map((e) => e.id)).toEqual([b?.id]);
    });

    it("prunes only sent entries older than the cutoff", async () => {
      const [a, b] = await store.enqueueOutbox([reply, reply]);
      await store.claimOutboxEntry(a?.id ?? -1);
      await store.markOutboxSent(a?.id ?? -1, ["m"]);
      h.clock.now += 1000;
      expect(await store.pruneSentOutbox(h.clock.now)).toBe(1);
      expect((await store.listOutbox()).map((e) => e.id)).toEqual([b?.id]);
      const [c] = await store.enqueueOutbox([reply]);
      expect(c?.id).toBeGreaterThan(b?.id ?? Number.POSITIVE_INFINITY);
    });

    it("prunes sent entries in steps of at most `limit`, oldest first", async () => {
      const send = async (count: number) => {
        const entries = await store.enqueueOutbox(Array.from({ length: count }, () => reply));
        for (const entry of entries) {
          await store.claimOutboxEntry(entry.id);
          await store.markOutboxSent(entry.id, ["m"]);
        }
        return entries.map((entry) => entry.id);
      };
      const old = await send(3);
      const [waiting] = await store.enqueueOutbox([reply]);
      h.clock.now += 1000;
      const cutoff = h.clock.now;
      const young = await send(1);
      expect(await store.pruneSentOutbox(cutoff, 2)).toBe(2);
      expect((await store.listOutbox()).map((e) => e.id)).toEqual([old[2], waiting?.id, ...young]);
      expect(await store.pruneSentOutbox(cutoff, 2)).toBe(1);
      expect(await store.pruneSentOutbox(cutoff, 2)).toBe(0);
      expect((await store.listOutbox()).map((e) => e.id)).toEqual([waiting?.id, ...young]);
      expect((await rejection(store.pruneSentOutbox(cutoff, 1.5))).code).toBe("invalid-input");
    });

    it("refuses a payload that is not JSON", async () => {
      const error = await rejection(store.enqueueOutbox([{ ...reply, payload: { n: 1n } }]));
      expect(error.code).toBe("invalid-input");
      expect(await store.listOutbox()).toEqual([]);
    });
  });

  describe("pairing", () => {
    const scope = { channel: "telegram", accountId: "bot" };
    const request = (code: string, senderId: string, createdAt = h.clock.now) => ({
      scope,
      code,
      senderId,
      senderName: `Sender ${senderId}`,
      createdAt,
      expiresAt: createdAt + HOUR,
    });
    const limits = () => ({ maxPending: 2, now: h.clock.now });

    it("inserts a request once per sender, refuses a taken code and a full scope", async () => {
      const first = request("AAAA2222", "u1");
      expect(await store.insertPending(first, limits())).toEqual({ status: "inserted" });
      expect(await store.insertPending(request("BBBB3333", "u1"), limits())).toEqual({
        status: "exists",
        request: first,
      });
      expect(await store.insertPending(request("AAAA2222", "u2"), limits())).toEqual({ status: "code-taken" });
      expect(await store.insertPending(request("CCCC4444", "u2"), limits())).toEqual({ status: "inserted" });
      expect(await store.insertPending(request("DDDD5555", "u3"), limits())).toEqual({ status: "full" });
      const otherAccount = { ...request("DDDD5555", "u3"), scope: { ...scope, accountId: "second-bot" } };
      expect(await store.insertPending(otherAccount, limits())).toEqual({ status: "inserted" });
    });

    it("stops counting expired requests, lists live ones oldest first and finds any by code", async () => {
      await store.insertPending(request("AAAA2222", "u1"), limits());
      h.clock.now += 10 * 60_000;
      await store.insertPending(request("BBBB3333", "u2"), limits());
      h.clock.now += 55 * 60_000;
      // u1's code expired: it no longer counts towards the limit and u1 may ask again.
      expect((await store.listPending(scope, h.clock.now)).map((r) => r.code)).toEqual(["BBBB3333"]);
      expect(await store.insertPending(request("CCCC4444", "u3"), limits())).toEqual({ status: "inserted" });
      expect((await store.listPending(scope, h.clock.now)).map((r) => r.code)).toEqual(["BBBB3333", "CCCC4444"]);
      expect((await store.getPending(scope, "BBBB3333"))?.senderId).toBe("u2");
      await store.deletePending(scope, "BBBB3333");
      expect(await store.getPending(scope, "BBBB3333")).toBeUndefined();
      expect(await store.getPending({ ...scope, channel: "discord" }, "CCCC4444")).toBeUndefined();
    });

    it("keeps approved senders per channel account until removed", async () => {
      expect(await store.isApproved(scope, "u1")).toBe(false);
      await store.addApproved(scope, "u1", h.clock.now);
      expect(await store.isApproved(scope, "u1")).toBe(true);
      expect(await store.isApproved({ ...scope, accountId: "second-bot" }, "u1")).toBe(false);
      expect(await store.removeApproved(scope, "u1")).toBe(true);
      expect(await store.removeApproved(scope, "u1")).toBe(false);
      expect(await store.isApproved(scope, "u1")).toBe(false);
    });

    it("backs the PairingService: a code is issued, approved as typed, and the sender let in", async () => {
      const service = new PairingService(store, { now: () => h.clock.now, generateCode: () => "K7QX2M9D" });
      const issued = await service.request(scope, { id: "u1", name: "Ann" });
      expect(issued).toEqual({ status: "created", code: "K7QX2M9D", expiresAt: h.clock.now + HOUR });
      expect(await service.request(scope, { id: "u1", name: "Ann" })).toMatchObject({ status: "pending" });
      expect(await service.approve(scope, "k7qx-2m9d")).toMatchObject({ ok: true, request: { senderId: "u1" } });
      expect(await store.isApproved(scope, "u1")).toBe(true);
      expect(await service.request(scope, { id: "u1", name: "Ann" })).toEqual({ status: "already-approved" });
      expect(await store.listPending(scope, h.clock.now)).toEqual([]);
    });
  });

  describe("schedules", () => {
    const schedule = (id: string, createdAt: number, extra: Partial<ScheduleRecord> = {}): ScheduleRecord => ({
      id,
      status: "active",
      nextRunAt: createdAt + HOUR,
      data: { prompt: "daily report", spec: { kind: "cron", expr: "0 9 * * *", timeZone: "Europe/Berlin" } },
      createdAt,
      updatedAt: createdAt,
      ...extra,
    });

    it("keeps a schedule with its data, replaces it by id and deletes it", async () => {
      await store.putSchedule(schedule("s1", 1_000));
      expect(await store.getSchedule("s1")).toEqual(schedule("s1", 1_000));
      const { nextRunAt: _none, ...withoutNext } = schedule("s1", 1_000, { status: "done", updatedAt: 5_000 });
      await store.putSchedule(withoutNext);
      expect(await store.getSchedule("s1")).toEqual(withoutNext);
      expect(await store.deleteSchedule("s1")).toBe(true);
      expect(await store.deleteSchedule("s1")).toBe(false);
      expect(await store.getSchedule("s1")).toBeUndefined();
    });

    it("lists schedules oldest first, narrowed by status", async () => {
      await store.putSchedule(schedule("b", 2_000));
      await store.putSchedule(schedule("a", 2_000, { status: "stopped" }));
      await store.putSchedule(schedule("c", 1_000));
      expect((await store.listSchedules()).map((s) => s.id)).toEqual(["c", "a", "b"]);
      expect((await store.listSchedules({ status: "active" })).map((s) => s.id)).toEqual(["c", "b"]);
      expect((await store.listSchedules({ status: ["stopped", "done"] })).map((s) => s.id)).toEqual(["a"]);
    });

    it("refuses data that is not JSON, storing nothing", async () => {
      const error = await rejection(store.putSchedule(schedule("bad", 1_000, { data: { n: 1n } as never })));
      expect(error.code).toBe("invalid-input");
      expect(await store.listSchedules()).toEqual([]);
    });

    it("rolls a schedule written in a failed transaction back", async () => {
      await expect(
        store.transaction(async (tx) => {
          await tx.putSchedule(schedule("s1", 1_000));
          throw new Error("boom");
        }),
      ).rejects.toThrow("boom");
      expect(await store.getSchedule("s1")).toBeUndefined();
    });
  });

  describe("turns and transactions", () => {
    it("commits a turn's messages, run end and replies together", async () => {
      const key = dmSession().key;
      await store.ensureSession(dmSession());
      await store.startRun({ id: "run-1", sessionKey: key, agentId: "main" });
      await store.appendMessages(key, [userMessage("Summarise my day")]);
      const result = await store.commitTurn({
        sessionKey: key,
        messages: [assistantText("You had 3 meetings.")],
        run: { id: "run-1", patch: { status: "completed", usage: usage(42, 0.001) } },
        outbox: [{ sessionKey: key, runId: "run-1", kind: "reply", payload: { text: "You had 3 meetings." } }],
      });
      expect(result).toMatchObject({ firstSeq: 2, lastSeq: 2, run: { status: "completed" } });
      expect(result.outbox.map((e) => e.status)).toEqual(["pending"]);
      expect((await store.readTranscript(key)).length).toBe(2);
      expect((await store.listOutbox({ status: "pending" })).map((e) => e.payload)).toEqual([
        { text: "You had 3 meetings." },
      ]);
    });

    it("writes nothing of a turn whose run change is refused", async () => {
      const key = dmSession().key;
      await store.ensureSession(dmSession());
      await store.startRun({ id: "run-1", sessionKey: key, agentId: "main" });
      await store.updateRun("run-1", { status: "aborted" });
      const turn = store.commitTurn({
        sessionKey: key,
        messages: [userMessage("q"), assistantText("a")],
        run: { id: "run-1", patch: { status: "completed" } },
        outbox: [{ sessionKey: key, kind: "reply", payload: "a" }],
      });
      expect((await rejection(turn)).code).toBe("invalid-state");
      expect(await store.readTranscript(key)).toEqual([]);
      expect((await store.getSession(key))?.lastSeq).toBe(0);
      expect(await store.listOutbox()).toEqual([]);
      expect(await store.appendMessages(key, [userMessage("next")])).toEqual({ firstSeq: 1, lastSeq: 1 });
    });

    it("writes a turn's run with its first commit when asked to start it, and ends it with a later one", async () => {
      const key = dmSession().key;
      await store.ensureSession(dmSession());
      const first = await store.commitTurn({
        sessionKey: key,
        messages: [assistantText("calling a tool")],
        run: { id: "run-1", start: { agentId: "main" } },
      });
      expect(first.run).toMatchObject({ id: "run-1", sessionKey: key, agentId: "main", depth: 0, status: "running" });
      expect((await store.listRuns({ status: "running" })).map((run) => run.id)).toEqual(["run-1"]);
      // Carrying `start` again (the first commit's outcome was unknown to the caller) changes nothing of the start.
      const last = await store.commitTurn({
        sessionKey: key,
        messages: [assistantText("done")],
        run: { id: "run-1", start: { agentId: "main" }, patch: { status: "completed", usage: usage(42, 0.001) } },
      });
      expect(last.run).toMatchObject({ id: "run-1", status: "completed", usage: { totalTokens: 42 } });
      expect(last.run?.startedAt).toBe(first.run?.startedAt);
      expect(await store.listRuns()).toHaveLength(1);
    });

    it("starts and ends a run in one commit, and refuses to start over an ended run", async () => {
      const key = dmSession().key;
      await store.ensureSession(dmSession());
      const result = await store.commitTurn({
        sessionKey: key,
        messages: [assistantText("quick")],
        run: { id: "run-1", start: { agentId: "main" }, patch: { status: "completed" } },
        outbox: [{ sessionKey: key, runId: "run-1", kind: "reply", payload: "quick" }],
      });
      expect(result.run).toMatchObject({ status: "completed", depth: 0 });
      expect(result.run?.endedAt).toBeDefined();
      const again = store.commitTurn({
        sessionKey: key,
        messages: [assistantText("late")],
        run: { id: "run-1", start: { agentId: "main" } },
      });
      expect((await rejection(again)).code).toBe("invalid-state");
      expect((await store.readTranscript(key)).length).toBe(1);
    });

    it("starts the transcript afresh at a commit's messages when asked (a compaction), in the same write", async () => {
      const key = dmSession().key;
      await store.ensureSession(dmSession());
      await store.appendMessages(key, [userMessage("old question"), assistantText("old answer")]);
      const result = await store.commitTurn({
        sessionKey: key,
        messages: [userMessage("summary of before")],
        startsTranscript: true,
      });
      expect(result).toMatchObject({ firstSeq: 3, lastSeq: 3 });
      expect((await store.readTranscript(key)).map((entry) => entry.seq)).toEqual([3]);
      expect((await store.readTranscript(key, { fromSeq: 1 })).length).toBe(3);
      await store.appendMessages(key, [assistantText("next")]);
      expect((await store.readTranscript(key)).map((entry) => entry.seq)).toEqual([3, 4]);
    });

    it("writes no run for a turn whose commit is refused", async () => {
      const turn = store.commitTurn({
        sessionKey: "no-such-session",
        messages: [assistantText("a")],
        run: { id: "run-1", start: { agentId: "main" } },
      });
      expect((await rejection(turn)).code).toBe("not-found");
      expect(await store.getRun("run-1")).toBeUndefined();
    });

    it("commits a transaction's writes when it resolves", async () => {
      const key = dmSession().key;
      const value = await store.transaction(async (tx) => {
        await tx.ensureSession(dmSession());
        await tx.appendMessages(key, [userMessage("hi"), toolResult("call_1", "lookup", "found")]);
        await tx.enqueueOutbox([{ sessionKey: key, kind: "notice", payload: "hello" }]);
        return "done";
      });
      expect(value).toBe("done");
      expect((await store.readTranscript(key)).length).toBe(2);
      expect((await store.listOutbox()).length).toBe(1);
    });

    it("rolls back every write of a transaction that throws, and rethrows", async () => {
      await store.ensureSession(dmSession("kept"));
      const failure = new Error("tool crashed");
      const outcome = store.transaction(async (tx) => {
        await tx.ensureSession(dmSession());
        await tx.appendMessages(dmSession().key, [userMessage("lost")]);
        await tx.appendMessages("kept", [userMessage("lost too")]);
        await tx.startRun({ id: "r", sessionKey: "kept", agentId: "main" });
        await tx.recordInboundEvent({ channel: "telegram", accountId: "bot", eventId: "e1" });
        await tx.enqueueOutbox([{ sessionKey: "kept", kind: "reply", payload: "lost" }]);
        await tx.updateSession("kept", { title: "lost" });
        throw failure;
      });
      await expect(outcome).rejects.toBe(failure);
      expect(await store.getSession(dmSession().key)).toBeUndefined();
      const kept = await store.getSession("kept");
      expect(kept?.title).toBeUndefined();
      expect(kept?.lastSeq).toBe(0);
      expect(await store.readTranscript("kept")).toEqual([]);
      expect(await store.getRun("r")).toBeUndefined();
      expect(await store.listOutbox()).toEqual([]);
      expect(await store.claimDueOutbox(10)).toEqual([]);
      expect(await store.recordInboundEvent({ channel: "telegram", accountId: "bot", eventId: "e1" })).toBe(true);
    });

    it("makes store calls wait while a transaction is open, so they never land inside it", async () => {
      await store.ensureSession(dmSession());
      let releaseTx: () => void = () => {};
      const txGate = new Promise<void>((resolve) => {
        releaseTx = resolve;
      });
      let txEntered: () => void = () => {};
      const entered = new Promise<void>((resolve) => {
        txEntered = resolve;
      });
      const outcome = store.transaction(async (tx) => {
        await tx.appendMessages(dmSession().key, [userMessage("inside")]);
        txEntered();
        await txGate;
        throw new Error("abandon");
      });
      await entered;
      const outside = store.appendMessages(dmSession().key, [userMessage("outside")]);
      let outsideSettled = false;
      void outside.then(() => {
        outsideSettled = true;
      });
      await Promise.resolve();
      await Promise.resolve();
      expect(outsideSettled).toBe(false);
      releaseTx();
      await expect(outcome).rejects.toThrow("abandon");
      expect(await outside).toEqual({ firstSeq: 1, lastSeq: 1 });
      expect(
        (await store.readTranscript(dmSession().key)).map((e) => (e.message as { content: string }).content),
      ).toEqual(["outside"]);
    });

    it("rejects a call on the store from inside its own transaction instead of waiting forever", async () => {
      await store.ensureSession(dmSession());
      const outcome = store.transaction(async (tx) => {
        await tx.appendMessages(dmSession().key, [userMessage("via tx")]);
        await store.appendMessages(dmSession().key, [userMessage("via store")]);
      });
      expect((await rejection(outcome)).code).toBe("invalid-state");
      expect(await store.readTranscript(dmSession().key)).toEqual([]);
      const nested = store.transaction(() => store.transaction(() => "inner"));
      expect((await rejection(nested)).code).toBe("invalid-state");
      expect(await store.appendMessages(dmSession().key, [userMessage("after")])).toEqual({ firstSeq: 1, lastSeq: 1 });
    });

    it("refuses a transaction handle used after its transaction ended", async () => {
      let escaped: Parameters<Parameters<SessionStore["transaction"]>[0]>[0] | undefined;
      await store.transaction((tx) => {
        escaped = tx;
      });
      expect((await rejection(escaped?.getSession("x") ?? Promise.resolve())).code).toBe("closed");
    });

    it("refuses calls after close", async () => {
      await store.close();
      await store.close();
      expect((await rejection(store.getSession("x"))).code).toBe("closed");
    });
  });
}
