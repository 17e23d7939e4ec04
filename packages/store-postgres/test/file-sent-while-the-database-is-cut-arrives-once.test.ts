import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { StreamContext } from "@chorus/core";
import { fakeModel, scriptedStreamFn } from "@chorus/core/testing";
import { mediaExtension } from "@chorus/extension-media";
import { Gateway, TestChannel } from "@chorus/gateway";
import { afterAll, expect, it } from "vitest";
import { PostgresSessionStore } from "../src/index.js";
import { databaseBehindAGate } from "./fixtures/database-behind-a-gate.js";

const { gate, url } = await databaseBehindAGate();
const dir = mkdtempSync(join(tmpdir(), "chorus-media-cut-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("send_file while the database is cut: the model hears it failed, tries again, and the file arrives once", async () => {
  writeFileSync(join(dir, "chart.csv"), "month,sales\njan,3\n");
  const store = await PostgresSessionStore.open({
    url: url(true),
    schema: "media_cut",
    connectTimeoutMs: 1000,
    queryTimeoutMs: 2000,
    onWarning: () => {},
  });
  const channel = new TestChannel({ id: "test", accountId: "main" });
  const toolResults: string[] = [];
  const streamFn = scriptedStreamFn((context: StreamContext) => {
    const last = context.messages.at(-1);
    if (last?.role !== "toolResult") {
      // The database goes away while the tool queues the file.
      gate.shut();
      return { toolCalls: [{ name: "send_file", args: { path: "chart.csv" } }] };
    }
    toolResults.push(last.content.map((part) => (part.type === "text" ? part.text : "")).join(""));
    gate.open();
    return toolResults.length === 1 ? { toolCalls: [{ name: "send_file", args: { path: "chart.csv" } }] } : "sent";
  });
  const model = fakeModel();
  const gateway = new Gateway({
    config: {
      agents: [{ id: "main", model: model.id }],
      channels: [{ channel: "test", dmPolicy: "open", admins: ["admin"] }],
    },
    store,
    channels: [channel],
    streamFn,
    models: { find: (id) => (id === model.id ? model : undefined), list: () => [model] },
    selfIds: { "test/main": "bot" },
    replyMode: "block",
    outbox: { pollMs: 100 },
    extensions: [mediaExtension({ dir: join(dir, "media"), filesOf: () => ({ root: dir, guestReadFolders: [] }) })],
  });
  await gateway.start();
  try {
    await channel.inject({
      chatType: "dm",
      chatId: "dm-admin",
      sender: { id: "admin", name: "Admin" },
      text: "the chart",
    });
    for (let i = 0; i < 200 && !channel.transcript("dm-admin").includes("sent"); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await gateway.idle();
    // The tool's first read of the session already meets the cut: a clear failure, nothing queued.
    expect(toolResults[0]).toMatch(/Cannot reach PostgreSQL|could not be queued/);
    expect(toolResults[0]).not.toContain("Sent the");
    expect(toolResults[1]).toContain("Sent the file chart.csv");
    expect(channel.succeeded("sendFile").map((call) => call.file.name)).toEqual(["chart.csv"]);
    const entries = await store.listOutbox();
    const files = entries.filter((entry) => JSON.stringify(entry.payload).includes('"files"'));
    expect(files).toHaveLength(1);
    expect(files[0]?.status).toBe("sent");
  } finally {
    await gateway.stop();
    await store.close();
  }
}, 60_000);
