import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createScratchDatabase, type ScratchDatabase, TEST_SERVER } from "@chorus/store-postgres/testing";
import { type NetworkGate, startNetworkGate } from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { parseBotConfig } from "../src/config/load-bot-config.js";
import { BotRuntime } from "../src/runtime/bot-runtime.js";
import { silentLogger } from "./support/silent-logger.js";

let database: ScratchDatabase;
let gate: NetworkGate;
let dir: string;
let runtime: BotRuntime | undefined;

beforeAll(async () => {
  database = await createScratchDatabase();
  gate = await startNetworkGate(`postgres://${TEST_SERVER.host}:${TEST_SERVER.port}`);
  dir = await mkdtemp(join(tmpdir(), "chorus-readyz-"));
});

afterAll(async () => {
  gate?.open();
  await runtime?.shutdown();
  await gate?.close();
  await database?.drop();
  await rm(dir, { recursive: true, force: true });
});

async function readiness(): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(new URL("readyz", runtime?.webchatUrl ?? ""));
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("a bot on PostgreSQL behind a balancer's readiness probe", () => {
  it("says not ready while its database does not answer, and ready again once it does", async () => {
    const parsed = parseBotConfig({
      dataDir: dir,
      agents: [{ id: "assistant", model: "demo" }],
      channels: { webchat: [{ accountId: "local", port: 0 }] },
      store: { kind: "postgres", url: `postgres://${TEST_SERVER.user}@127.0.0.1:${gate.port}/${database.name}` },
    });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    runtime = new BotRuntime({ config: parsed.config, source: "test", logger: silentLogger(), cwd: dir });
    await runtime.start();
    expect(await readiness()).toMatchObject({ status: 200, body: { status: "ready", store: "reachable" } });

    gate.shut();
    // The store is read once a second with a 2 s timeout: the probe turns within a few seconds, never stays ready.
    await vi.waitFor(
      async () => expect(await readiness()).toMatchObject({ status: 503, body: { store: "unreachable" } }),
      { timeout: 8000, interval: 200 },
    );

    gate.open();
    await vi.waitFor(
      async () => expect(await readiness()).toMatchObject({ status: 200, body: { store: "reachable" } }),
      { timeout: 8000, interval: 200 },
    );
  }, 30_000);
});
