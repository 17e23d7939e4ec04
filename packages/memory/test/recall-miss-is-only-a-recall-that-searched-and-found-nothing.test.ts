import { describe, expect, it } from "vitest";
import {
  type Fact,
  type NewMemoryMiss,
  type RecallResult,
  recallMissOf,
  recordMemoryMiss,
  WITHHELD_MISS_QUERY,
} from "../src/index.js";

const SCOPES = ["user:test:alice"];
const none: RecallResult = { kind: "recalled", facts: [], tookMs: 1 };
const fact = { id: "f1", text: "Alice likes tea" } as Fact;

describe("what counts as a recall miss", () => {
  it("a search that found nothing, a timeout and a failure are misses; a hit is not", () => {
    const attempt = { query: "favourite tea", scopes: SCOPES, strategy: "hybrid" as const };
    expect(recallMissOf(none, attempt)).toEqual({
      query: "favourite tea",
      strategy: "hybrid",
      reason: "no_results",
      error: "no_results",
    });
    expect(recallMissOf({ kind: "skipped", reason: "timeout", tookMs: 50 }, attempt)).toMatchObject({
      reason: "timeout",
      error: "timeout",
    });
    const failed: RecallResult = { kind: "skipped", reason: "error", tookMs: 3, error: new Error("disk I/O error") };
    expect(recallMissOf(failed, attempt)).toMatchObject({ reason: "error", error: "Error: disk I/O error" });
    expect(recallMissOf({ kind: "recalled", facts: [{ fact, score: 1 }], tookMs: 1 }, attempt)).toBeUndefined();
  });

  it("a recall that searched nothing (no scopes, no search term) is no miss", () => {
    expect(recallMissOf(none, { query: "favourite tea", scopes: [], strategy: "fulltext" })).toBeUndefined();
    expect(recallMissOf(none, { query: "?! …", scopes: SCOPES, strategy: "fulltext" })).toBeUndefined();
  });

  it("cuts the query to 512 characters, and keeps none shaped like a secret", () => {
    const miss = recallMissOf(none, { query: "tea ".repeat(300), scopes: SCOPES, strategy: "fulltext" });
    expect(miss?.query).toHaveLength(512);
    const secret = recallMissOf(none, { query: "my password is hunter22", scopes: SCOPES, strategy: "fulltext" });
    expect(secret?.query).toBe(WITHHELD_MISS_QUERY);
  });
});

describe("recording a miss", () => {
  const miss: NewMemoryMiss = {
    query: "tea",
    strategy: "fulltext",
    reason: "no_results",
    error: "no_results",
    sessionKey: "main:main:test:dm:alice",
    agentId: "main",
    at: 1,
  };

  it("starts the write after the caller's own work, and hands a failed write to onFailure without rejecting", async () => {
    const order: string[] = [];
    const failures: unknown[] = [];
    const log = {
      recordMiss: () => {
        order.push("write");
        return Promise.reject(new Error("database is gone"));
      },
    };
    const written = recordMemoryMiss(log, miss, (error) => failures.push(error));
    order.push("caller goes on");
    await expect(written).resolves.toBeUndefined();
    expect(order).toEqual(["caller goes on", "write"]);
    expect(String(failures[0])).toContain("database is gone");
  });
});
