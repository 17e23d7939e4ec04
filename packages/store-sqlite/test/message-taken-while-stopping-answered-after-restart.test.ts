import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TestChannel } from "@chorus/gateway";
import { startChannelGateway } from "@chorus/gateway-testing";
import { afterEach, beforeEach, expect, it } from "vitest";
import { SqliteSessionStore } from "../src/index.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "chorus-draining-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const config = {
  agents: [{ id: "main", model: "fake-model" }],
  channels: [{ channel: "test", dmPolicy: "open" as const }],
};

async function start(channel: TestChannel) {
  const store = SqliteSessionStore.open({ path: join(dir, "chorus.db") });
  const running = await startChannelGateway({
    channels: [channel],
    config,
    // "slow" keeps a turn running while the gateway stops; the user's last words are echoed (not the gateway's
    // "[The gateway restarted …]" note a resumed session gets).
    script: (context) => {
      const said = context.messages.flatMap((m) =>
        m.role === "user" && typeof m.content === "string" ? [m.content] : [],
      );
      const text = said.filter((words) => !words.startsWith("[")).at(-1) ?? "";
      return text === "slow" ? { text: "slow answer", endDelayMs: 400 } : `echo: ${text}`;
    },
    gateway: { store, onRestart: "resume", replyMode: "block", titles: false },
  });
  return { running, store };
}

it("keeps a message taken while a single gateway stops, and the next start answers it", async () => {
  const first = new TestChannel({ id: "test", accountId: "main" });
  const before = await start(first);
  void first.inject({ text: "slow", sender: { id: "ann" }, eventId: "e1" });
  await new Promise((resolve) => setTimeout(resolve, 50));
  const stopping = before.running.gateway.stop(5_000);
  // The platform delivers (and the channel acks) a message while the running turn is being finished.
  await first.inject({ text: "are you there?", sender: { id: "bob" }, eventId: "e2" });
  await stopping;
  await before.store.close();
  expect(first.transcript("dm-ann")).toEqual(["slow answer"]);
  expect(first.transcript("dm-bob")).toEqual([]);

  const second = new TestChannel({ id: "test", accountId: "main" });
  const after = await start(second);
  try {
    await after.running.gateway.idle();
    expect(second.transcript("dm-bob")).toEqual([
      "I was restarted before I could answer — answering now.",
      "echo: are you there?",
    ]);
    expect(second.transcript("dm-ann")).toEqual([]);
  } finally {
    await after.running.stop();
    await after.store.close();
  }
});
