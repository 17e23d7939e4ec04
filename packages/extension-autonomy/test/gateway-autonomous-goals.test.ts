import type { ScriptedTurn } from "@chorus/core/testing";
import type { GatewayConfigInput } from "@chorus/gateway";
import { MemorySessionStore, type SessionStore } from "@chorus/store";
import { afterEach, describe, expect, it, vi } from "vitest";
import { goalOf } from "../src/goals/goal-record.js";
import { type AutonomyHarness as Harness, startAutonomyHarness as startHarness } from "./fixtures/autonomy-harness.js";
import { autonomousTurnOf, type GoalScript, goalScript, isSupervisorCall, verdict } from "./fixtures/goal-script.js";

const ADMIN = { id: "admin", name: "Admin" };
const KEY = "main:main:test:dm:admin";
const CHAT = "dm-admin";

function config(goals: Record<string, unknown> = {}): GatewayConfigInput {
  return {
    agents: [
      {
        id: "main",
        model: "fake-model",
        goals: { autonomousEnabled: true, verifyInterval: 1, autonomousTurnDelayMs: 1, ...goals },
      },
    ],
    channels: [{ channel: "test", dmPolicy: "open", admins: ["admin"], allowFrom: ["user-1"] }],
  };
}

/** The supervisor says achieved once it sees "step N" for N ≥ `at`. */
function achievedAt(at: number): NonNullable<GoalScript["supervisor"]> {
  return (excerpt) => {
    const steps = [...excerpt.matchAll(/step (\d+)/g)].map((match) => Number(match[1]));
    const last = steps.at(-1) ?? 0;
    return last >= at ? verdict(true, `step ${last} finishes it`) : verdict(false, `only at step ${last}`);
  };
}

async function goal(store: SessionStore) {
  const session = await store.getSession(KEY);
  return session === undefined ? undefined : goalOf(session.settings);
}

function agentTurns(h: Harness): number[] {
  return h.streamFn.calls.flatMap((call) => {
    const turn = autonomousTurnOf(call.context);
    return turn === undefined ? [] : [turn];
  });
}

function supervisorCalls(h: Harness): number {
  return h.streamFn.calls.filter((call) => isSupervisorCall(call.context)).length;
}

describe("autonomous goals through the gateway", () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it("stops at turn 7 when the supervisor declares the goal achieved there", async () => {
    h = await startHarness({ script: goalScript({ supervisor: achievedAt(7) }), config: config() });
    await h.send({ text: "/goal create --auto --turns 20 count to seven", sender: ADMIN });
    expect(agentTurns(h)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(supervisorCalls(h)).toBe(7);
    expect(await goal(h.store)).toMatchObject({
      status: "completed",
      completedBy: "supervisor",
      auto: { status: "achieved", turns: 7, lastVerdict: { achieved: true, reason: "step 7 finishes it", turn: 7 } },
    });
    const chat = h.channel.transcript(CHAT);
    expect(chat[0]).toContain("🎯 Autonomous goal started: count to seven — up to 20 turn(s)");
    expect(chat.at(-1)).toBe("✓ Goal completed: count to seven (the supervisor: step 7 finishes it)");
    // Every turn is in the transcript like any other: its prompt and its reply.
    const transcript = JSON.stringify(await h.store.readTranscript(KEY));
    for (let turn = 1; turn <= 7; turn++) expect(transcript).toContain(`step ${turn}`);
    expect(transcript).not.toContain("Goal completed");
    // Each turn was a stored run.
    expect((await h.store.listRuns({ sessionKey: KEY })).map((run) => run.status)).toEqual(Array(7).fill("completed"));
  });

  it("a verdict that lands while the next turn runs stops that turn, which is not counted", async () => {
    h = await startHarness({
      script: goalScript({
        // The supervisor takes 100 ms; the agent's turn 3 would take a minute.
        supervisor: (excerpt) => ({ blocks: [{ type: "text", text: achievedAt(2)(excerpt) as string, delayMs: 100 }] }),
        agent: (turn) =>
          turn === 3 ? { blocks: [{ type: "text", text: "step 3", delayMs: 60_000 }] } : `step ${turn}`,
      }),
      config: config(),
    });
    await h.send({ text: "/goal create --auto --turns 10 two steps", sender: ADMIN });
    expect(agentTurns(h)).toEqual([1, 2, 3]);
    expect((await goal(h.store))?.auto).toMatchObject({ status: "achieved", turns: 2, lastVerdict: { turn: 2 } });
    expect((await h.store.listRuns({ sessionKey: KEY })).map((run) => run.status)).toEqual([
      "completed",
      "completed",
      "aborted",
    ]);
  });

  it("asks the supervisor every verifyInterval turns and stops at the turn limit", async () => {
    h = await startHarness({ script: goalScript(), config: config({ verifyInterval: 2 }) });
    await h.send({ text: "/goal create --auto --turns 5 never enough", sender: ADMIN });
    expect(agentTurns(h)).toEqual([1, 2, 3, 4, 5]);
    expect(supervisorCalls(h)).toBe(2);
    expect((await goal(h.store))?.auto).toMatchObject({ status: "turn-limit", turns: 5 });
    expect((await goal(h.store))?.status).toBe("active");
    expect(h.channel.transcript(CHAT).at(-1)).toContain("⏹ Autonomous goal stopped at its turn limit (5 turns)");
  });

  it("defaults the turn limit to autonomousMaxTurns", async () => {
    h = await startHarness({ script: goalScript(), config: config({ autonomousMaxTurns: 3, verifyInterval: 5 }) });
    await h.send({ text: "/goal create --auto keep going", sender: ADMIN });
    expect(agentTurns(h)).toEqual([1, 2, 3]);
    expect((await goal(h.store))?.auto).toMatchObject({ status: "turn-limit", maxTurns: 3, turns: 3 });
  });

  it("ends a goal as stuck after maxStuckCount identical outputs", async () => {
    h = await startHarness({
      script: goalScript({ agent: (turn) => (turn < 3 ? `step ${turn}` : "I am thinking.") }),
      config: config({ maxStuckCount: 3 }),
    });
    await h.send({ text: "/goal create --auto --turns 20 think", sender: ADMIN });
    expect(agentTurns(h)).toEqual([1, 2, 3, 4, 5]);
    expect((await goal(h.store))?.auto).toMatchObject({ status: "stuck", turns: 5, stuckCount: 2 });
    expect(h.channel.transcript(CHAT).at(-1)).toContain("⏹ Autonomous goal stopped: the last 3 outputs were identical");
  });

  it("pauses after maxSupervisorFails failed checks in a row (429s), and does not spin", async () => {
    const rateLimited: ScriptedTurn = {
      fault: "error",
      error: { kind: "rate_limit", message: "429 slow down", status: 429 },
    };
    h = await startHarness({
      script: goalScript({ supervisor: () => rateLimited }),
      config: config({ maxSupervisorFails: 3 }),
    });
    await h.send({ text: "/goal create --auto --turns 30 outlast the outage", sender: ADMIN });
    const stored = await goal(h.store);
    expect(stored?.auto).toMatchObject({ status: "paused", supervisorFails: 3 });
    expect(stored?.auto?.note).toContain("rate_limit");
    expect(supervisorCalls(h)).toBe(3);
    // The driver never waited for the supervisor: it went on while the checks failed, then paused.
    const turns = agentTurns(h).length;
    expect(turns).toBeGreaterThanOrEqual(3);
    expect(turns).toBeLessThanOrEqual(4);
    expect(h.channel.transcript(CHAT).at(-1)).toContain("⏸ Autonomous goal paused: the supervisor failed 3 time(s)");
    // Paused means no driver: the gateway is idle (send waited for it) and makes no more calls.
    const calls = h.streamFn.calls.length;
    await h.gateway.idle();
    expect(h.streamFn.calls.length).toBe(calls);
  });

  it("retries a failed check at the next turn without blocking the driver", async () => {
    let checks = 0;
    h = await startHarness({
      script: goalScript({
        supervisor: (excerpt) => {
          checks++;
          if (checks === 1) return { fault: "error", error: { kind: "rate_limit", message: "429", status: 429 } };
          return achievedAt(2)(excerpt);
        },
      }),
      config: config({ verifyInterval: 2 }),
    });
    await h.send({ text: "/goal create --auto --turns 10 two steps", sender: ADMIN });
    // Turn 2's check failed; it was retried after turn 3 (not an interval turn) and said achieved.
    expect(agentTurns(h)).toEqual([1, 2, 3]);
    expect((await goal(h.store))?.auto).toMatchObject({ status: "achieved", supervisorFails: 0 });
  });

  it("/goal pause and resume work for its owner and admins, not for others in the chat", async () => {
    h = await startHarness({
      script: goalScript({
        supervisor: achievedAt(4),
        agent: (turn) => (turn === 2 ? { blocks: [{ type: "text", text: "step 2", delayMs: 500 }] } : `step ${turn}`),
      }),
      config: {
        ...config(),
        channels: [
          {
            channel: "test",
            admins: ["admin"],
            groupPolicy: "allowlist",
            groups: { "group-1": { requireMention: false } },
          },
        ],
      },
    });
    const group = { chatType: "group" as const };
    const member = { id: "member", name: "Member" };
    await h.channel.inject({ text: "/goal create --auto --turns 10 four steps", sender: ADMIN, ...group });
    await vi.waitFor(() => expect(agentTurns(h!)).toContain(2), { interval: 5 });
    // While turn 2 runs: a member of the chat may not pause it, an admin may.
    await h.channel.inject({ text: "/goal pause", sender: member, ...group });
    await h.channel.inject({ text: "/goal pause", sender: ADMIN, ...group });
    await h.gateway.idle();
    const chat = h.channel.transcript("group-1");
    expect(chat).toContain("Only whoever started this autonomous goal, or an admin, can pause it.");
    expect(chat).toContain("Paused the autonomous goal after 1 turn(s); /goal resume goes on.");
    // Pausing does not abort the turn under way; it starts no next one.
    expect(agentTurns(h)).toEqual([1, 2]);
    const stored = async () => goalOf((await h!.store.listSessions())[0]!.settings);
    expect((await stored())?.auto).toMatchObject({ status: "paused", turns: 2 });
    await h.send({ text: "/goal resume", sender: member, ...group });
    expect(h.channel.transcript("group-1").at(-1)).toBe(
      "Only whoever started this autonomous goal, or an admin, can resume it.",
    );
    await h.send({ text: "/goal resume", sender: ADMIN, ...group });
    expect(h.channel.transcript("group-1")).toContain("Resumed the autonomous goal at turn 3 of 10.");
    expect(agentTurns(h)).toEqual([1, 2, 3, 4]);
    expect((await stored())?.auto?.status).toBe("achieved");
  });

  it("/goal stop ends a running goal and its turn", async () => {
    h = await startHarness({
      script: goalScript({
        agent: (turn) => (turn === 3 ? { blocks: [{ type: "text", text: "slow", delayMs: 60_000 }] } : `step ${turn}`),
      }),
      config: config(),
    });
    await h.channel.inject({ text: "/goal create --auto --turns 10 go", sender: ADMIN });
    await vi.waitFor(() => expect(agentTurns(h!)).toContain(3), { interval: 5 });
    await h.send({ text: "/goal stop", sender: ADMIN });
    expect(h.channel.transcript(CHAT)).toContain("Stopped the autonomous goal after 2 turn(s).");
    expect((await goal(h.store))?.auto).toMatchObject({ status: "stopped", turns: 2 });
    expect(agentTurns(h)).toEqual([1, 2, 3]);
    await h.send({ text: "/goal", sender: ADMIN });
    expect(h.channel.transcript(CHAT).at(-1)).toContain("**Autonomous**: stopped · turn 2/10");
  });

  it("/goal stop takes a waiting goal prompt out of the lane and leaves a user's running turn alone", async () => {
    h = await startHarness({
      script: goalScript({
        user: (text) => (text === "slow" ? { blocks: [{ type: "text", text: "slow reply", delayMs: 500 }] } : text),
      }),
      config: config({ autonomousTurnDelayMs: 200 }),
    });
    await h.send({ text: "/queue followup", sender: ADMIN });
    await h.channel.inject({ text: "/goal create --auto --turns 10 go", sender: ADMIN });
    await vi.waitFor(() => expect(h!.channel.transcript(CHAT)).toContain("step 1"), { interval: 5 });
    // During the delay after turn 1, a user's slow turn starts; the goal's turn 2 then waits behind it.
    await h.channel.inject({ text: "slow", sender: ADMIN });
    await vi.waitFor(async () => expect(JSON.stringify(await h!.store.readTranscript(KEY))).toContain("turn 2 of 10"), {
      interval: 5,
    });
    await h.send({ text: "/goal stop", sender: ADMIN });
    expect(h.channel.transcript(CHAT)).toContain("slow reply");
    expect(agentTurns(h)).toEqual([1]);
    expect((await h.store.listRuns({ sessionKey: KEY })).map((run) => run.status)).toEqual(["completed", "completed"]);
    expect((await goal(h.store))?.auto).toMatchObject({ status: "stopped", turns: 1 });
  });

  it("/stop pauses a running goal and stops its turn; /new drops the goal", async () => {
    h = await startHarness({
      script: goalScript({
        agent: (turn) => (turn === 2 ? { blocks: [{ type: "text", text: "slow", delayMs: 60_000 }] } : `step ${turn}`),
      }),
      config: config(),
    });
    await h.channel.inject({ text: "/goal create --auto --turns 10 go", sender: ADMIN });
    await vi.waitFor(() => expect(agentTurns(h!)).toContain(2), { interval: 5 });
    await h.send({ text: "/stop", sender: ADMIN });
    expect(h.channel.transcript(CHAT)).toContain("Stopped the current task.");
    expect((await goal(h.store))?.auto).toMatchObject({ status: "paused", turns: 1, note: "paused by /stop" });
    expect(agentTurns(h)).toEqual([1, 2]);
    await h.send({ text: "/new", sender: ADMIN });
    expect(await goal(h.store)).toBeUndefined();
  });

  it("a user's message during the goal follows the queue mode (followup: its own turn, then the goal goes on)", async () => {
    h = await startHarness({
      script: goalScript({
        supervisor: achievedAt(3),
        agent: (turn) => (turn === 2 ? { blocks: [{ type: "text", text: "step 2", delayMs: 500 }] } : `step ${turn}`),
      }),
      config: config(),
    });
    await h.send({ text: "/queue followup", sender: ADMIN });
    await h.channel.inject({ text: "/goal create --auto --turns 10 three steps", sender: ADMIN });
    await vi.waitFor(() => expect(agentTurns(h!)).toContain(2), { interval: 5 });
    await h.send({ text: "how is it going?", sender: ADMIN });
    expect(h.channel.transcript(CHAT)).toContain("echo: how is it going?");
    expect(agentTurns(h)).toEqual([1, 2, 3]);
    expect((await goal(h.store))?.auto?.status).toBe("achieved");
  });

  it("interrupt mode: a user's message stops the autonomous turn, is answered, and the goal goes on", async () => {
    h = await startHarness({
      script: goalScript({
        supervisor: achievedAt(3),
        agent: (turn) =>
          turn === 2 ? { blocks: [{ type: "text", text: "step 2", delayMs: 60_000 }] } : `step ${turn}`,
      }),
      config: config(),
    });
    await h.send({ text: "/queue interrupt", sender: ADMIN });
    await h.channel.inject({ text: "/goal create --auto --turns 10 three steps", sender: ADMIN });
    await vi.waitFor(() => expect(agentTurns(h!)).toContain(2), { interval: 5 });
    await h.send({ text: "stop that, what time is it?", sender: ADMIN });
    expect(h.channel.transcript(CHAT)).toContain("echo: stop that, what time is it?");
    expect(agentTurns(h)).toEqual([1, 2, 3]);
    expect((await h.store.listRuns({ sessionKey: KEY })).map((run) => run.status)).toEqual([
      "completed",
      "aborted",
      "completed",
      "completed",
    ]);
    expect((await goal(h.store))?.auto).toMatchObject({ status: "achieved", turns: 3 });
  });

  it("steer mode: a user's message joins the autonomous turn under way", async () => {
    h = await startHarness({
      script: goalScript({
        supervisor: achievedAt(3),
        agent: (turn) => (turn === 2 ? { blocks: [{ type: "text", text: "step 2", delayMs: 500 }] } : `step ${turn}`),
      }),
      config: config(),
    });
    await h.channel.inject({ text: "/goal create --auto --turns 10 three steps", sender: ADMIN });
    await vi.waitFor(() => expect(agentTurns(h!)).toContain(2), { interval: 5 });
    await h.send({ text: "also mention the weather", sender: ADMIN });
    expect(h.channel.transcript(CHAT)).toContain("echo: also mention the weather");
    // No turn of its own: the three runs are the goal's.
    expect(await h.store.listRuns({ sessionKey: KEY })).toHaveLength(3);
    expect((await goal(h.store))?.auto).toMatchObject({ status: "achieved", turns: 3 });
  });

  it("shows autonomous goals in /agents with turn counts and the last verdict", async () => {
    h = await startHarness({ script: goalScript({ supervisor: achievedAt(2) }), config: config() });
    await h.send({ text: "/goal create --auto --turns 5 two steps", sender: ADMIN });
    await h.send({ text: "/agents", sender: ADMIN });
    const reply = h.channel.transcript(CHAT).at(-1)!;
    expect(reply).toContain("**Autonomous goals**");
    expect(reply).toContain("completed (1):");
    expect(reply).toContain(
      "- main: “two steps” · achieved · turn 2/5 · supervisor at turn 2: achieved — step 2 finishes it",
    );
  });

  it("an admin stops another chat's goal from /agents, and that chat is told", async () => {
    h = await startHarness({
      script: goalScript({
        agent: (turn) => (turn === 2 ? { blocks: [{ type: "text", text: "slow", delayMs: 60_000 }] } : `step ${turn}`),
      }),
      config: config({ autonomousMinTier: "trusted" }),
    });
    const userKey = "main:main:test:dm:user-1";
    await h.channel.inject({ text: "/goal create --auto --turns 10 go", sender: { id: "user-1", name: "User" } });
    await vi.waitFor(() => expect(agentTurns(h!)).toContain(2), { interval: 5 });
    await h.channel.inject({ text: `/agents goal pause ${userKey}`, sender: { id: "user-1", name: "User" } });
    await h.send({ text: `/agents goal stop ${userKey}`, sender: ADMIN });
    expect(h.channel.transcript("dm-user-1")).toContain("You are not authorised to use /agents.");
    expect(h.channel.transcript(CHAT).at(-1)).toBe("Stopped the autonomous goal after 1 turn(s).");
    expect(h.channel.transcript("dm-user-1").at(-1)).toBe("An administrator stopped this chat's autonomous goal.");
    const session = await h.store.getSession(userKey);
    expect(goalOf(session!.settings)?.auto).toMatchObject({ status: "stopped", note: "stopped by admin" });
    await h.send({ text: `/agents goal stop ${userKey}`, sender: ADMIN });
    expect(h.channel.transcript(CHAT).at(-1)).toBe("The autonomous goal is stopped already.");
    await h.send({ text: "/agents goal stop nowhere", sender: ADMIN });
    expect(h.channel.transcript(CHAT).at(-1)).toBe('No session "nowhere".');
  });
});

describe("autonomous goals across a restart", () => {
  it("a new Gateway on the same store resumes a running goal exactly once", async () => {
    const store = new MemorySessionStore();
    const first = await startHarness({
      store,
      script: goalScript({
        supervisor: achievedAt(6),
        agent: (turn) =>
          turn === 4 ? { blocks: [{ type: "text", text: "step 4", delayMs: 60_000 }] } : `step ${turn}`,
      }),
      config: config(),
    });
    await first.channel.inject({ text: "/goal create --auto --turns 10 six steps", sender: ADMIN });
    await vi.waitFor(() => expect(agentTurns(first)).toContain(4), { interval: 5 });
    await first.close();
    expect((await goal(store))?.auto).toMatchObject({ status: "running", turns: 3 });

    const second = await startHarness({ store, script: goalScript({ supervisor: achievedAt(6) }), config: config() });
    await second.gateway.idle();
    // The interrupted turn 4 runs again, once, then 5 and 6.
    expect(agentTurns(second)).toEqual([4, 5, 6]);
    expect((await goal(store))?.auto).toMatchObject({ status: "achieved", turns: 6 });
    expect(second.channel.transcript(CHAT)).toContain(
      "🎯 Resuming the autonomous goal after a restart (turn 4 of 10): six steps",
    );
    await second.close();

    // A third start finds nothing to resume.
    const third = await startHarness({ store, script: goalScript(), config: config() });
    await third.gateway.idle();
    expect(third.streamFn.calls).toHaveLength(0);
    await third.close();
  });

  it("after a crash mid-turn, the goal resumes by itself and the chat is not asked to reply 'continue'", async () => {
    const store = new MemorySessionStore();
    // What a crash leaves: a running goal at turn 2 of 5, turn 3's prompt stored, its run still marked running.
    await store.ensureSession({ key: KEY, agentId: "main", channel: "test", accountId: "main", chatId: CHAT });
    const goalRecord = {
      id: "goal-1",
      text: "four steps",
      status: "active",
      setAt: 1,
      setBy: "admin",
      auto: {
        status: "running",
        maxTurns: 5,
        turns: 2,
        stuckCount: 0,
        supervisorFails: 0,
        trust: "owner",
        updatedAt: 1,
      },
    };
    await store.updateSession(KEY, { settings: { goal: goalRecord } });
    await store.appendMessages(KEY, [
      { role: "user", content: "[Autonomous goal, turn 3 of 5] Continue working toward the goal.", timestamp: 2 },
    ]);
    await store.startRun({ id: "run_crashed", sessionKey: KEY, agentId: "main" });

    const h2 = await startHarness({ store, script: goalScript({ supervisor: achievedAt(4) }), config: config() });
    await h2.gateway.idle();
    expect(agentTurns(h2)).toEqual([3, 4]);
    const chat = h2.channel.transcript(CHAT);
    expect(chat[0]).toBe("🎯 Resuming the autonomous goal after a restart (turn 3 of 5): four steps");
    expect(chat.join("\n")).not.toContain("reply 'continue'");
    expect((await store.getRun("run_crashed"))?.status).toBe("interrupted");
    expect((await goal(store))?.auto).toMatchObject({ status: "achieved", turns: 4 });
    await h2.close();
  });

  it("a turn that ends within the shutdown's grace is counted; the next start goes on after it", async () => {
    const store = new MemorySessionStore();
    const first = await startHarness({
      store,
      script: goalScript({
        supervisor: achievedAt(5),
        agent: (turn) => (turn === 3 ? { blocks: [{ type: "text", text: "step 3", delayMs: 200 }] } : `step ${turn}`),
      }),
      config: config(),
    });
    await first.channel.inject({ text: "/goal create --auto --turns 10 five steps", sender: ADMIN });
    await vi.waitFor(() => expect(agentTurns(first)).toContain(3), { interval: 5 });
    await first.gateway.stop(10_000);
    expect(agentTurns(first)).toEqual([1, 2, 3]);
    expect((await goal(store))?.auto).toMatchObject({ status: "running", turns: 3 });

    const second = await startHarness({ store, script: goalScript({ supervisor: achievedAt(5) }), config: config() });
    await second.gateway.idle();
    expect(agentTurns(second)).toEqual([4, 5]);
    expect((await goal(store))?.auto).toMatchObject({ status: "achieved", turns: 5 });
    await second.close();
  });

  it("a shutdown cancels a supervisor check under way without counting it as a failure", async () => {
    const store = new MemorySessionStore();
    const first = await startHarness({
      store,
      // The supervisor never answers (its timeout is 30 s); the goal reaches its 2-turn limit meanwhile.
      script: goalScript({ supervisor: () => ({ fault: "hang" }) }),
      config: config(),
    });
    await first.channel.inject({ text: "/goal create --auto --turns 2 wait for it", sender: ADMIN });
    await vi.waitFor(async () => expect((await goal(store))?.auto?.status).toBe("turn-limit"), { interval: 5 });
    expect(supervisorCalls(first)).toBeGreaterThanOrEqual(1);
    // stop(0) resolves although the check would hang for 30 s: it is cancelled.
    await first.gateway.stop(0);
    expect((await goal(store))?.auto).toMatchObject({ status: "turn-limit", turns: 2, supervisorFails: 0 });
  });

  it("marks a running goal orphaned when its session can no longer run", async () => {
    const store = new MemorySessionStore();
    const first = await startHarness({
      store,
      script: goalScript({
        agent: (turn) => (turn === 2 ? { blocks: [{ type: "text", text: "x", delayMs: 60_000 }] } : `step ${turn}`),
      }),
      config: config(),
    });
    await first.channel.inject({ text: "/goal create --auto --turns 10 go on", sender: ADMIN });
    await vi.waitFor(() => expect(agentTurns(first)).toContain(2), { interval: 5 });
    await first.close();

    // Autonomous goals were turned off for the agent meanwhile.
    const second = await startHarness({ store, script: goalScript(), config: config({ autonomousEnabled: false }) });
    await second.gateway.idle();
    expect(agentTurns(second)).toEqual([]);
    expect((await goal(store))?.auto).toMatchObject({
      status: "orphaned",
      note: "autonomous goals are now off for main",
    });
    await second.send({ text: "/agents", sender: ADMIN, messageId: "second-1" });
    expect(second.channel.transcript(CHAT).at(-1)).toContain("orphaned (1):");
    await second.close();
  });
});
