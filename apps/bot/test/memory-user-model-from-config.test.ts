import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemorySessionStore } from "@chorus/gateway";
import { afterEach, describe, expect, it } from "vitest";
import { parseBotConfig } from "../src/config/load-bot-config.js";
import { type OpenedMemory, openMemory } from "../src/runtime/open-memory.js";

let dir: string | undefined;
let opened: OpenedMemory | undefined;
afterEach(async () => {
  await opened?.close();
  opened = undefined;
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

async function memoryOptionsOf(memory: Record<string, unknown>) {
  dir = await mkdtemp(join(tmpdir(), "chorus-user-model-"));
  const parsed = parseBotConfig({ dataDir: dir, agents: [{ id: "main", model: "demo" }], memory });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  opened = await openMemory(parsed.config, dir, new MemorySessionStore());
  return opened?.options;
}

describe("memory.userModel in the bot config", () => {
  it("is off unless set: the per-user model is given to memory only with `userModel: true`", async () => {
    expect((await memoryOptionsOf({ path: "memory.db" }))?.userModel).toBeUndefined();
    await opened?.close();
    expect((await memoryOptionsOf({ path: "memory.db", userModel: true }))?.userModel).toBe(true);
  });

  it("refuses a value that is not a boolean, naming the key", () => {
    const parsed = parseBotConfig({ agents: [{ id: "main", model: "demo" }], memory: { userModel: "yes" } });
    expect(parsed.ok).toBe(false);
    expect(JSON.stringify(parsed.ok ? [] : parsed.issues)).toContain("userModel");
  });
});
