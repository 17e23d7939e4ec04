import { fakeModel, scriptedStreamFn } from "@chorus/core/testing";
import { Gateway, TestChannel } from "@chorus/gateway";
import { describe, expect, it } from "vitest";
import { PostgresSessionStore } from "../src/index.js";
import { databaseBehindAGate } from "./fixtures/database-behind-a-gate.js";

const { gate, url } = await databaseBehindAGate();

describe("a gateway on PostgreSQL while the database is away", () => {
  it("tells the sender a message it could not store was not taken, and answers again once Postgres is back", async () => {
    const store = await PostgresSessionStore.open({
      url: url(true),
      connectTimeoutMs: 1000,
      onWarning: () => {},
    });
    const channel = new TestChannel({ id: "test", accountId: "main" });
    const model = fakeModel();
    const gateway = new Gateway({
      // Ann is allowed by config: her DM needs no pairing lookup, so storing it is the store's first call.
      // (A DM that needs the lookup fails before the intake's "not stored" notice while the database is away.)
      config: {
        agents: [{ id: "main", model: model.id }],
        channels: [{ channel: "test", dmPolicy: "allowlist", allowFrom: ["ann"] }],
      },
      store,
      channels: [channel],
      streamFn: scriptedStreamFn(() => "ok"),
      models: { find: (id) => (id === model.id ? model : undefined), list: () => [model] },
      selfIds: { "test/main": "bot" },
      replyMode: "block",
    });
    await gateway.start();
    const send = async (text: string) => {
      await channel.inject({ text, sender: { id: "ann", name: "Ann" } }).catch(() => {});
      await gateway.idle();
    };
    try {
      await send("before");
      expect(channel.transcript("dm-ann")).toEqual(["ok"]);

      gate.shut();
      await send("during");
      expect(channel.transcript("dm-ann")).toEqual(["ok", expect.stringContaining("could not save your message")]);

      gate.open();
      await send("after");
      expect(channel.transcript("dm-ann").at(-1)).toBe("ok");
      const [session] = await store.listSessions();
      const said = (await store.readTranscript(session?.key ?? ""))
        .filter((entry) => entry.message.role === "user")
        .map((entry) => entry.message.content);
      expect(said).toEqual(["before", "after"]);
    } finally {
      gate.open();
      await gateway.stop(0);
      await store.close();
    }
  });
});
