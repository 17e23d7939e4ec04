import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { autonomyExtension } from "@chorus/extension-autonomy";
import { TestChannel } from "@chorus/gateway";
import { type ChannelGateway, startChannelGateway } from "@chorus/gateway-testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SqliteSessionStore } from "../src/index.js";

let dir: string;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "chorus-spend-"));
  path = join(dir, "chorus.db");
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const ADMIN = { id: "admin", name: "Admin" };
const config = {
  agents: [{ id: "main", model: "fake-model", budgets: { dailyTokens: 1_000_000 } }],
  channels: [{ channel: "test", dmPolicy: "open" as const, admins: ["admin"] }],
};

async function start(channel: TestChannel): Promise<{ running: ChannelGateway; store: SqliteSessionStore }> {
  const store = SqliteSessionStore.open({ path });
  const running = await startChannelGateway({
    channels: [channel],
    config,
    script: () => ({ text: "noted", usage: { input: 20, output: 5, totalTokens: 25 } }),
    gateway: { store, extensions: [autonomyExtension()] },
  });
  return { running, store };
}

describe("spend on SQLite across a restart", () => {
  it("/usage after a restart shows what each user and the agent spent before it", async () => {
    const first = new TestChannel({ id: "test", accountId: "main" });
    const before = await start(first);
    await first.inject({ text: "hello", sender: { id: "u1", name: "Ann" }, eventId: "e1" });
    await first.inject({ text: "and again", sender: { id: "u1", name: "Ann" }, eventId: "e2" });
    await first.inject({ text: "hi", sender: ADMIN, eventId: "e3" });
    await before.running.gateway.idle();
    await before.running.stop();
    await before.store.close();

    const second = new TestChannel({ id: "test", accountId: "main" });
    const after = await start(second);
    try {
      await second.inject({ text: "/usage", sender: ADMIN, eventId: "e4" });
      await after.running.gateway.idle();
      const answer = second.transcript("dm-admin").at(-1) ?? "";
      expect(answer).toMatch(/- main: today 75 tokens .*\(budget 1000000 tokens per day\)/);
      expect(answer).toContain("- u1: today 50 tokens");
      expect(answer).toContain("- admin: today 25 tokens");
      expect(after.running.streamFn.calls).toHaveLength(0);
    } finally {
      await after.running.stop();
      await after.store.close();
    }
  });
});
