import { isSessionStoreError } from "@chorus/store";
import { afterAll, expect, it } from "vitest";
import { PostgresSessionStore, sessionShard } from "../src/index.js";
import { createScratchDatabase, queryOnce } from "../src/testing/index.js";
import { answerTurn, sessionsInLockOrder } from "./fixtures/sessions-in-lock-order.js";

const database = await createScratchDatabase();
afterAll(() => database.drop());

function clusterStore(instanceId: string): Promise<PostgresSessionStore> {
  // Long leases: no heartbeat runs during the test.
  return PostgresSessionStore.open({
    url: database.url,
    schema: "fenced_batch",
    cluster: { instanceId, leaseMs: 60_000, sweepMs: 60_000 },
    onWarning: () => {},
  });
}

it("refuses the write of a session whose lease moved on inside a batch, and commits the batch's others", async () => {
  const a = await clusterStore("a");
  const b = await clusterStore("b");
  try {
    await a.ownership?.start(() => {});
    const sessions = sessionsInLockOrder("fenced", 4);
    for (const session of sessions) await a.ensureSession(session);
    const fences = sessions.map((session) => a.ownership?.fenceFor(session.key));
    // Instance b takes one shard over (its lease ran out while a was paused); a still believes it holds it.
    const deposed = sessions[1];
    if (deposed === undefined || fences.some((fence) => fence === undefined)) throw new Error("a should own all");
    await queryOnce(database.url, "UPDATE fenced_batch.shard_leases SET expires_at = 0 WHERE shard = $1", [
      sessionShard(deposed.key),
    ]);
    await b.ownership?.start(() => {});
    expect(b.ownership?.fenceFor(deposed.key)?.epoch).toBe((fences[1]?.epoch ?? 0) + 1);

    const before = a.roundTrips;
    const outcomes = await Promise.allSettled(
      sessions.map((session, i) => {
        const fence = fences[i];
        return a.commitTurn(answerTurn(session, `r${i}`, fence === undefined ? {} : { fence }));
      }),
    );
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "rejected", "fulfilled", "fulfilled"]);
    const refusal = (outcomes[1] as PromiseRejectedResult).reason;
    expect(isSessionStoreError(refusal, "fenced")).toBe(true);
    // One batch wrote the others; the refused commit then read why (its session, its lease): two reads alone.
    expect(a.roundTrips - before).toBe(3);
    expect(await b.readTranscript(deposed.key)).toEqual([]);
    expect(await b.getRun("r1")).toBeUndefined();
    for (const i of [0, 2, 3]) expect((await b.getRun(`r${i}`))?.status).toBe("completed");
  } finally {
    await a.close();
    await b.close();
  }
});
