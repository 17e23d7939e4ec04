import { describe, expect, it } from "vitest";
import type { ClusterRequest } from "../src/gateway/cluster-request.js";
import { ClusterRequests } from "../src/ownership/cluster-requests.js";
import type { ClusterFleet, ClusterSignal } from "../src/ownership/index.js";

/** Instances on one broadcast bus, as the database's NOTIFY makes them: every signal reaches every one. */
function bus() {
  const members: ClusterRequests<ClusterRequest>[] = [];
  const work: Promise<unknown>[] = [];
  const join = (self: string, answer: (request: ClusterRequest) => Promise<unknown> | undefined, timeoutMs = 200) => {
    const fleet: ClusterFleet = {
      self,
      instances: async () => [],
      reportRuns: () => {},
      broadcast: async (signal: ClusterSignal) => {
        queueMicrotask(() => {
          for (const member of members) member.onSignal(signal);
        });
        return true;
      },
    };
    const member = new ClusterRequests<ClusterRequest>({
      fleet,
      self,
      answer,
      track: (w) => void work.push(w),
      timeoutMs,
    });
    members.push(member);
    return member;
  };
  return { join, settled: () => Promise.all(work) };
}

describe("requests between cluster instances", () => {
  it("are answered once, by the instance the request concerns, and the asker learns which one", async () => {
    const { join, settled } = bus();
    const asked: string[] = [];
    const a = join("a", () => undefined);
    join("b", (request) => {
      asked.push(`b:${request.op}`);
      return request.op === "kill" ? Promise.resolve({ killed: ["run_1"] }) : undefined;
    });
    join("c", (request) => {
      asked.push(`c:${request.op}`);
      return undefined;
    });
    expect(await a.ask({ op: "kill", runId: "run_1" })).toEqual({ from: "b", result: { killed: ["run_1"] } });
    await settled();
    // Everyone else heard it and stayed silent; the asker did not answer its own request.
    expect(asked.sort()).toEqual(["b:kill", "c:kill"]);
  });

  it("resolve undefined when nobody answers in time, so that the asker acts itself", async () => {
    const { join } = bus();
    const a = join("a", () => undefined, 50);
    join("b", () => undefined);
    expect(await a.ask({ op: "stop", sessionKey: "main:main:test:dm:u" })).toBeUndefined();
    expect(await a.outcome({ op: "stop", sessionKey: "main:main:test:dm:u" })).toEqual({ kind: "unanswered" });
  });

  it("wait for an answer that takes many timeouts while its instance says it is still working on it", async () => {
    const { join, settled } = bus();
    const a = join("a", () => undefined, 60);
    // b's /compact takes five of a's timeouts (a summary call).
    join("b", () => new Promise((resolve) => setTimeout(() => resolve("Compacted."), 300)), 60);
    expect(await a.outcome({ op: "compact", sessionKey: "main:main:test:dm:u" })).toEqual({
      kind: "answered",
      from: "b",
      result: "Compacted.",
    });
    await settled();
  });

  it("tell a taker that fell silent (it said it was working, then nothing came) from nobody taking the request", async () => {
    const { join } = bus();
    const a = join("a", () => undefined, 60);
    // b works for a while, then its answer never comes (its instance died mid-command: it answers nothing).
    join("b", () => new Promise((resolve) => setTimeout(() => resolve(undefined), 100)), 60);
    expect(await a.outcome({ op: "compact", sessionKey: "main:main:test:dm:u" })).toEqual({ kind: "lost", from: "b" });
    // Its plain `ask` reads that as no answer.
    expect(await a.ask({ op: "compact", sessionKey: "main:main:test:dm:u" })).toBeUndefined();
  });
});
