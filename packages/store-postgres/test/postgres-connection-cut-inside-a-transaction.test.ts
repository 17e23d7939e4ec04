import { expect, it } from "vitest";
import { PostgresSessionStore } from "../src/index.js";
import { databaseBehindAGate } from "./fixtures/database-behind-a-gate.js";

const { gate, url } = await databaseBehindAGate();

const session = { key: "main:main:test:dm:ann", agentId: "main", channel: "test", accountId: "main", chatId: "ann" };

it("fails a transaction whose connection is cut between two statements, without crashing, and works once back", async () => {
  const store = await PostgresSessionStore.open({
    url: url(true),
    connectTimeoutMs: 1000,
    onWarning: () => {},
  });
  try {
    // The cut lands while the transaction holds its connection and no statement is under way: the connection's
    // "error" event has no query to go to (an uncaught one would fail this run with an unhandled error).
    const cut = store.transaction(async (tx) => {
      await tx.ensureSession(session);
      gate.shut();
      await new Promise((resolve) => setTimeout(resolve, 200));
      await tx.ensureSession({ ...session, key: `${session.key}-2`, chatId: "ann-2" });
    });
    await expect(cut).rejects.toThrow();
    gate.open();
    // Nothing of the cut transaction was kept; the store answers again on a fresh connection.
    expect(await store.getSession(session.key)).toBeUndefined();
    const { created } = await store.ensureSession(session);
    expect(created).toBe(true);
  } finally {
    gate.open();
    await store.close();
  }
});
