import { isSessionStoreError } from "@chorus/gateway";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PostgresSessionStore } from "../src/index.js";
import { createScratchDatabase, type ScratchDatabase } from "../src/testing/index.js";

let database: ScratchDatabase;
beforeAll(async () => {
  database = await createScratchDatabase();
});
afterAll(async () => {
  await database.drop();
});

async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected the open to be refused");
    },
    (error: unknown) => error,
  );
}

describe("one gateway per PostgreSQL database", () => {
  it("refuses a second store on the same database while the first is open, and lets one in after it closes", async () => {
    const first = await PostgresSessionStore.open({ url: database.url });
    const refused = await rejectionOf(PostgresSessionStore.open({ url: database.url }));
    expect(isSessionStoreError(refused, "in-use")).toBe(true);
    expect((refused as Error).message).toContain("Another Chorus instance is using this database");
    expect((refused as Error).message).toContain("cluster mode is issue #18");
    expect((refused as Error).message).toContain(`127.0.0.1:5432/${database.name}`);
    // The first store is untouched by the refused one.
    await first.ensureSession({ key: "s", agentId: "main", channel: "test", accountId: "main", chatId: "c" });
    await first.close();

    const next = await PostgresSessionStore.open({ url: database.url });
    expect((await next.getSession("s"))?.key).toBe("s");
    await next.close();
  });

  it("gives each schema its own owner", async () => {
    const a = await PostgresSessionStore.open({ url: database.url, schema: "bot_a" });
    const b = await PostgresSessionStore.open({ url: database.url, schema: "bot_b" });
    expect([a.schema, b.schema]).toEqual(["bot_a", "bot_b"]);
    await a.close();
    await b.close();
  });

  it("lets a tool look at a database a gateway is using when it asks for no ownership", async () => {
    const owner = await PostgresSessionStore.open({ url: database.url, schema: "watched" });
    const viewer = await PostgresSessionStore.open({ url: database.url, schema: "watched", exclusive: false });
    expect(await viewer.listSessions()).toEqual([]);
    await viewer.close();
    await owner.close();
  });
});
