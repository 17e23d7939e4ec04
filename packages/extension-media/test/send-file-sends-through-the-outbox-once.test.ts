import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ChannelError } from "@chorus/channel";
import type { StreamContext } from "@chorus/core";
import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type MediaHarness, startMediaHarness } from "./fixtures/media-harness.js";

const owner = { chatType: "dm" as const, chatId: "dm-admin", sender: { id: "admin", name: "Admin" } };
const guestInGroup = {
  chatType: "group" as const,
  chatId: "group-1",
  mentionsBot: true,
  sender: { id: "g1", name: "Guest" },
};

/** A model that calls send_file with `args` once, then says what the tool answered. */
function sender(args: Record<string, unknown>) {
  return (context: StreamContext) => {
    const last = context.messages.at(-1);
    if (last?.role === "toolResult") {
      const said = last.content.map((part) => (part.type === "text" ? part.text : "")).join("");
      return `tool said: ${said}`;
    }
    return { toolCalls: [{ name: "send_file", args }] };
  };
}

describe("send_file sends a file to the chat through the outbox, once", () => {
  let m: MediaHarness | undefined;
  let workspace: string;
  beforeEach(async () => {
    workspace = mkdtempSync(join(tmpdir(), "chorus-ws-"));
    mkdirSync(join(workspace, "charts"));
    const png = await sharp({ create: { width: 60, height: 40, channels: 4, background: "#00aa0080" } })
      .png()
      .toBuffer();
    writeFileSync(join(workspace, "charts", "sales.png"), png);
    writeFileSync(join(workspace, "report.pdf"), "%PDF-1.4\n%%EOF\n");
    writeFileSync(join(tmpdir(), "outside-secret.txt"), "secret");
  });
  afterEach(async () => {
    await m?.close();
    m = undefined;
    rmSync(workspace, { recursive: true, force: true });
  });

  const start = (args: Record<string, unknown>, config?: unknown) =>
    startMediaHarness({
      script: sender(args),
      filesOf: () => ({ root: workspace, guestReadFolders: [] }),
      ...(config === undefined ? {} : { config }),
    });

  it("an image from the workspace goes as a photo with its caption; the model hears it was sent", async () => {
    m = await start({ path: "charts/sales.png", caption: "Sales by month" });
    await m.h.send({ ...owner, text: "send me the chart" });
    await m.h.gateway.idle();
    const uploads = m.h.channel.succeeded("sendFile");
    expect(uploads).toHaveLength(1);
    expect(uploads[0]?.file).toMatchObject({
      name: "sales.png",
      mimeType: "image/png",
      asPhoto: true,
      caption: "Sales by month",
    });
    expect(uploads[0]?.file.idempotencyKey).toMatch(/^outbox:\d+:file:0$/);
    const sent = await sharp(Buffer.from(uploads[0]?.file.bytes ?? [])).metadata();
    expect([sent.width, sent.height]).toEqual([60, 40]);
    expect(m.h.channel.transcript("dm-admin").at(-1)).toContain("tool said: Sent the photo sales.png (image/png");
  });

  it("text the agent wrote goes as a document typed by its name; a PDF as a document", async () => {
    m = await start({ content: "city,temp\nOslo,3\n", name: "temps.csv" });
    await m.h.send({ ...owner, text: "csv please" });
    await m.h.gateway.idle();
    expect(m.h.channel.succeeded("sendFile")[0]?.file).toMatchObject({
      name: "temps.csv",
      mimeType: "text/csv",
      asPhoto: false,
    });
    await m.close();
    m = await start({ path: "report.pdf" });
    await m.h.send({ ...owner, text: "the report" });
    await m.h.gateway.idle();
    expect(m.h.channel.succeeded("sendFile")[0]?.file).toMatchObject({
      name: "report.pdf",
      mimeType: "application/pdf",
      asPhoto: false,
    });
  });

  it("a path outside the workspace is refused and nothing is sent", async () => {
    m = await start({ path: "../outside-secret.txt" });
    await m.h.send({ ...owner, text: "send it" });
    await m.h.gateway.idle();
    expect(m.h.channel.calls.filter((call) => call.op === "sendFile")).toHaveLength(0);
    expect(m.h.channel.transcript("dm-admin").at(-1)).toMatch(/tool said: .*(outside|climbs above)/);
  });

  it("a guest in a group cannot send workspace files (the tool policy gates it as a read)", async () => {
    m = await start({ path: "report.pdf" });
    await m.h.send({ ...guestInGroup, text: "@bot send me report.pdf" });
    await m.h.gateway.idle();
    expect(m.h.channel.calls.filter((call) => call.op === "sendFile")).toHaveLength(0);
    expect(m.h.channel.transcript("group-1").at(-1)).toContain("tool said:");
    expect(m.h.channel.transcript("group-1").at(-1)).not.toContain("Sent the");
  });

  it("a file over the agent's limit is refused with the limit in the error", async () => {
    m = await start({ path: "charts/sales.png" }, { limits: { maxSendBytes: 100 } });
    await m.h.send({ ...owner, text: "send it" });
    await m.h.gateway.idle();
    expect(m.h.channel.calls.filter((call) => call.op === "sendFile")).toHaveLength(0);
    expect(m.h.channel.transcript("dm-admin").at(-1)).toContain("this chat takes files up to 100 B");
  });

  it("an upload the platform refused for a moment is retried and arrives once", async () => {
    m = await start({ path: "charts/sales.png" });
    m.h.channel.failNext("sendFile", new ChannelError("rate-limited", "slow down", { retryAfterMs: 10 }));
    await m.h.send({ ...owner, text: "send it" });
    await m.h.gateway.idle();
    for (let i = 0; i < 100 && m.h.channel.succeeded("sendFile").length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(m.h.channel.calls.filter((call) => call.op === "sendFile")).toHaveLength(2);
    expect(m.h.channel.succeeded("sendFile")).toHaveLength(1);
  });
});
