import { REST } from "discord.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type DiscordAttachment, type FakeDiscord, startFakeDiscord } from "../src/platforms/index.js";

// Issue #32's first step on Discord: attachments behind signed CDN links that expire, as Discord's do — past `ex` the
// link answers 404, and `POST /attachments/refresh-urls` gives a working one for the same file.

let fake: FakeDiscord | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const PDF = new TextEncoder().encode("%PDF-1.7\n%fake\n");

async function attached(f: FakeDiscord): Promise<DiscordAttachment> {
  const delivery = await f.injectDm({
    content: "the report",
    attachments: [{ bytes: PDF, filename: "report.pdf", contentType: "application/pdf" }],
  });
  const [attachment] = delivery.item.attachments as DiscordAttachment[];
  if (attachment === undefined) throw new Error("nothing attached");
  return attachment;
}

describe("files people attach on the fake Discord", () => {
  it("are on the message and downloaded from their CDN link, byte for byte", async () => {
    fake = await startFakeDiscord();
    const attachment = await attached(fake);
    expect(attachment).toMatchObject({ filename: "report.pdf", content_type: "application/pdf", size: PDF.byteLength });
    expect(attachment.url).toMatch(/\/attachments\/\d+\/\d+\/report\.pdf\?ex=[0-9a-f]+&is=[0-9a-f]+&hm=[0-9a-f]+&$/);
    const response = await fetch(attachment.url);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(PDF);
    const tampered = attachment.url.replace(/hm=[0-9a-f]{4}/, "hm=0000");
    expect((await fetch(tampered)).status).toBe(404);
  });

  it("expire, and are refreshed through the API for the same file", async () => {
    fake = await startFakeDiscord({ attachmentUrlTtlMs: 60_000 });
    const attachment = await attached(fake);
    // The clock moves past the link's expiry (only Date: timers and sockets keep real time), so a loaded machine
    // cannot make the renewed link expire too before it is fetched.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 61_000);
    const expired = await fetch(attachment.url);
    expect(expired.status).toBe(404);
    expect(await expired.text()).toBe("This content is no longer available.");

    const rest = new REST({ api: fake.restApi, version: "10" }).setToken(fake.token);
    const answer = (await rest.post("/attachments/refresh-urls", {
      body: { attachment_urls: [attachment.url] },
    })) as { refreshed_urls: { original: string; refreshed: string }[] };
    const [refreshed] = answer.refreshed_urls;
    expect(refreshed?.original).toBe(attachment.url);
    expect(refreshed?.refreshed).not.toBe(attachment.url);
    expect(new Uint8Array(await (await fetch(refreshed?.refreshed ?? "")).arrayBuffer())).toEqual(PDF);
    vi.useRealTimers();
  });
});
