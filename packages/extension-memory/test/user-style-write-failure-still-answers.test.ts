import { type Harness, startHarness } from "@chorus/gateway-testing";
import { SqliteMemoryStore } from "@chorus/memory";
import { afterAll, describe, expect, it } from "vitest";
import { memoryExtension } from "../src/index.js";

// Seed 003 step 2: the user model's errors are logged and swallowed, never fatal.
const memory = new SqliteMemoryStore({ path: ":memory:" });
let failing: "write" | "read" | undefined;
const store = Object.assign(Object.create(memory) as SqliteMemoryStore, {
  observeUser: (...args: Parameters<SqliteMemoryStore["observeUser"]>) => {
    if (failing === "write") throw new Error("disk full"); // thrown, not even a rejected promise
    return memory.observeUser(...args);
  },
  userObservations: (...args: Parameters<SqliteMemoryStore["userObservations"]>) =>
    failing === "read" ? Promise.reject(new Error("database gone")) : memory.userObservations(...args),
});

describe("a failing user model", () => {
  let h: Harness | undefined;
  afterAll(async () => {
    await h?.close();
    await memory.close();
  });

  it("never fails a turn: a failed write or read is logged, the message answered", async () => {
    const warnings: string[] = [];
    const logger = {
      info: () => {},
      error: () => {},
      warn: (_: object, message?: string) => warnings.push(message ?? ""),
    };
    h = await startHarness({
      script: () => "ok",
      gateway: { logger, extensions: [memoryExtension({ store, userModel: true })] },
    });

    failing = "write";
    await h.send({ text: "hey wie geht das" });
    expect(h.channel.transcript("dm-user-1")).toEqual(["ok"]);
    expect(warnings).toContain("could not keep a style observation");
    expect((await memory.userObservations("user:test:user-1")).total).toBe(0);

    failing = "read";
    await h.send({ text: "und was ist das" });
    expect(h.channel.transcript("dm-user-1")).toEqual(["ok", "ok"]);
    expect(warnings).toContain("user model read failed");

    failing = undefined;
    await h.send({ text: "ok ist gut" });
    expect(h.channel.transcript("dm-user-1")).toEqual(["ok", "ok", "ok"]);
    expect((await memory.userObservations("user:test:user-1")).total).toBe(2);
  });
});
