import { describe, expect, it } from "vitest";
import { ClusterRequests } from "../src/ownership/cluster-requests.js";
import type { ClusterFleet, ClusterRequest, ClusterSignal } from "../src/ownership/index.js";

/** Instances on one broadcast bus, as the database's NOTIFY makes them: every signal reaches every one. */
function bus() {
  const members: ClusterRequests[] = [];
  const work: Promise<unknown>[] = [];
  const join = (self: string, answer: (request: ClusterRequest) => Promise<unknown>, timeoutMs = 200) => {
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
    const member = new ClusterRequests({ fleet, self, answer, track: (w) => void work.push(w), timeoutMs });
    members.push(member);
    return member;
  };
  return { join, settled: () => Promise.all(work) };
}

describe("requests between cluster instances", () => {
  it("are answered once, by the instance the request concerns, and the asker learns which one", async () => {
    const { join, settled } = bus();
    const asked: string[] = [];
    const a = join("a", async () => undefined);
    join("b", async (request) => {
      asked.push(`b:${request.op}`);
      return request.op === "kill" ? { killed: ["run_1"] } : undefined;
    });
    join("c", async (request) => {
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
    const a = join("a", async () => undefined, 50);
    join("b", async () => undefined);
    expect(await a.ask({ op: "stop", sessionKey: "main:main:test:dm:u" })).toBeUndefined();
  });
});
