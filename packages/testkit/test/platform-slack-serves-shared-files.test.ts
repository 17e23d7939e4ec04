import { afterEach, describe, expect, it } from "vitest";
import { type FakeSlack, type SlackFile, startFakeSlack } from "../src/platforms/index.js";

// Issue #32's first step on Slack: the fake serves the files people share as Slack does — a `file_share` message with
// `files`, each at `url_private`, which answers an installed app's bot token only (anyone else gets the sign-in page).

let fake: FakeSlack | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

async function sharedFile(f: FakeSlack): Promise<SlackFile> {
  const delivery = await f.injectDm({
    text: "the chart",
    files: [{ bytes: PNG, name: "chart.png", mimetype: "image/png" }],
  });
  const event = delivery.item.event as { subtype?: string; files?: SlackFile[] };
  expect(event.subtype).toBe("file_share");
  const [file] = event.files ?? [];
  if (file === undefined) throw new Error("no file shared");
  return file;
}

describe("files people share on the fake Slack", () => {
  it("are listed on the message and downloaded from url_private with the bot token, byte for byte", async () => {
    fake = await startFakeSlack({ mode: "http" });
    const file = await sharedFile(fake);
    expect(file).toMatchObject({ name: "chart.png", mimetype: "image/png", filetype: "png", size: PNG.byteLength });
    const response = await fetch(file.url_private, { headers: { authorization: `Bearer ${fake.botToken}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/png");
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(PNG);
    const download = await fetch(file.url_private_download, { headers: { authorization: `Bearer ${fake.botToken}` } });
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(PNG);
  });

  it("answers a download without the bot token with Slack's sign-in page, not the file", async () => {
    fake = await startFakeSlack({ mode: "http" });
    const file = await sharedFile(fake);
    for (const headers of [{}, { authorization: "Bearer xoxb-not-installed" }]) {
      const response = await fetch(file.url_private, { headers });
      expect(response.headers.get("content-type")).toMatch(/^text\/html/);
      expect(await response.text()).toContain("Sign in");
    }
    const unknown = await fetch(`${new URL(file.url_private).origin}/files-pri/T0FAKE0001-F0NONE/x.png`, {
      headers: { authorization: `Bearer ${fake.botToken}` },
    });
    expect(unknown.status).toBe(404);
  });
});
