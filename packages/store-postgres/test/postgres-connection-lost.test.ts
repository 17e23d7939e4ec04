import { isSessionStoreError } from "@chorus/gateway";
import { describe, expect, it } from "vitest";
import { PostgresSessionStore } from "../src/index.js";
import { databaseBehindAGate } from "./fixtures/database-behind-a-gate.js";

const { database, gate, url } = await databaseBehindAGate();

const session = {
  key: "main:bot:telegram:dm:42",
  agentId: "main",
  channel: "telegram",
  accountId: "bot",
  chatId: "42",
};
const hello = (text: string) => ({ role: "user" as const, content: text, timestamp: 1 });

describe("PostgreSQL connection lost while running", () => {
  it("rejects calls with the store's error while Postgres is unreachable, and works again once it is back", async () => {
    const warnings: string[] = [];
    const store = await PostgresSessionStore.open({
      url: url(true),
      connectTimeoutMs: 1000,
      onWarning: (message) => warnings.push(message),
    });
    try {
      await store.ensureSession(session);
      await store.appendMessages(session.key, [hello("before")]);

      gate.shut();
      const during = await store.appendMessages(session.key, [hello("during")]).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(isSessionStoreError(during, "io")).toBe(true);
      expect((during as Error).message).toContain(`Cannot reach PostgreSQL at 127.0.0.1:${gate.port}/${database.name}`);
      const read = await store.readTranscript(session.key).catch((error: unknown) => error);
      expect(isSessionStoreError(read, "io")).toBe(true);

      gate.open();
      // The pool makes new connections: the next calls succeed without reopening the store.
      expect(await store.appendMessages(session.key, [hello("after")])).toEqual({ firstSeq: 2, lastSeq: 2 });
      expect((await store.readTranscript(session.key)).map((entry) => entry.message)).toEqual([
        hello("before"),
        hello("after"),
      ]);
      // The owner lock went with its connection and is taken again: a second gateway is still refused.
      await expect
        .poll(
          async () =>
            PostgresSessionStore.open({ url: database.url }).then(
              async (intruder) => {
                await intruder.close();
                return "let in";
              },
              (error: unknown) => (isSessionStoreError(error) ? error.code : String(error)),
            ),
          { timeout: 10_000, interval: 100 },
        )
        .toBe("in-use");
      expect(warnings.some((warning) => warning.includes("taking it again"))).toBe(true);
    } finally {
      gate.open();
      await store.close();
    }
  });

  it("fails a call after the query timeout when the network goes silent, and works again once it carries again", async () => {
    const store = await PostgresSessionStore.open({
      url: url(true),
      schema: "silent",
      queryTimeoutMs: 300,
      onWarning: () => {},
    });
    try {
      await store.ensureSession(session);
      gate.stall();
      const during = await store.getSession(session.key).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(isSessionStoreError(during, "io")).toBe(true);
      expect((during as Error).message).toContain(`Cannot reach PostgreSQL at 127.0.0.1:${gate.port}/${database.name}`);
      gate.open();
      // The stalled connections are dropped by their timeout; new ones carry.
      await expect
        .poll(async () => (await store.getSession(session.key).catch(() => undefined))?.key, { timeout: 10_000 })
        .toBe(session.key);
    } finally {
      gate.open();
      await store.close();
    }
  });
});
