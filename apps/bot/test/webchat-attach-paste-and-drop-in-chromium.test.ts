import { fileURLToPath } from "node:url";
import type { InboundMessage } from "@chorus/gateway";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { TINY_PNG as PNG, webchatInChromium } from "./support/webchat-channel-in-chromium.js";

// A person attaches files to WebChat messages three ways in a real browser — the attach button (the file picker),
// pasting an image, dropping a file onto the chat — and the channel hands the gateway messages whose attachments'
// bytes, fetched back with fetchAttachment, are exactly what was uploaded.

const SCREENSHOT = fileURLToPath(new URL("./screenshots/webchat-attachments.png", import.meta.url));

// Fields read inside the tests: both start in the file's beforeAll.
const web = webchatInChromium();

/** Waits for the n-th message the gateway received, and returns it. */
async function nth(n: number): Promise<InboundMessage> {
  await web.chat.until(() => web.chat.inbound.length >= n);
  return web.chat.inbound[n - 1] as InboundMessage;
}

/** The bytes of a message's only attachment, as the gateway fetches them. */
async function attachedBytes(message: InboundMessage): Promise<Buffer> {
  expect(message.attachments).toHaveLength(1);
  const [attachment] = message.attachments;
  const fetched = await web.chat.channel.fetchAttachment(
    { id: attachment?.id ?? "", chatId: message.chatId, messageId: message.messageId },
    { maxBytes: 1024 * 1024 },
  );
  return Buffer.from(fetched.bytes);
}

/** In the page: dispatches a paste or a drop carrying one file, as the browser does for a real paste or drop. */
const DISPATCH_WITH_FILE = `(({ type, selector, name, mimeType, bytes }) => {
  const data = new DataTransfer();
  data.items.add(new File([new Uint8Array(bytes)], name, { type: mimeType }));
  const target = document.querySelector(selector);
  if (type === "paste") {
    target.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
    return;
  }
  target.dispatchEvent(new DragEvent("dragover", { dataTransfer: data, bubbles: true, cancelable: true }));
  target.dispatchEvent(new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }));
})`;

async function dispatchWithFile(
  page: Page,
  type: "paste" | "drop",
  selector: string,
  file: { name: string; mimeType: string; bytes: Buffer },
): Promise<void> {
  const args = { type, selector, name: file.name, mimeType: file.mimeType, bytes: [...file.bytes] };
  await page.evaluate(`${DISPATCH_WITH_FILE}(${JSON.stringify(args)})`);
}

describe("attaching files in WebChat in headless Chromium", () => {
  it("sends files attached with the button, pasted and dropped, byte for byte", async () => {
    const page = await web.browser.newPage({ viewport: { width: 1000, height: 900 } });
    await page.goto(web.chat.url);
    await page.locator("#status.online").waitFor();

    // 1. The attach button opens the file picker.
    const csv = Buffer.from("quarterly numbers\n1,2,3\n");
    const [chooser] = await Promise.all([page.waitForEvent("filechooser"), page.locator("#attach").click()]);
    await chooser.setFiles({ name: "numbers.csv", mimeType: "text/csv", buffer: csv });
    await page.locator(".chip.ready", { hasText: "numbers.csv" }).waitFor();
    await page.locator("#input").fill("here are the numbers");
    await page.keyboard.press("Enter");
    const first = await nth(1);
    expect(first.text).toBe("here are the numbers");
    expect(first.attachments[0]).toMatchObject({ name: "numbers.csv", mimeType: "text/csv", sizeBytes: csv.length });
    expect(await attachedBytes(first)).toEqual(csv);
    await page.locator(".msg.user .file", { hasText: "numbers.csv" }).waitFor();
    await expect(page.locator(".chip").count()).resolves.toBe(0); // the composer is empty again

    // 2. An image pasted from the clipboard, sent without text.
    await page.locator("#input").focus();
    await dispatchWithFile(page, "paste", "#input", { name: "image.png", mimeType: "image/png", bytes: PNG });
    await page.locator(".chip.ready", { hasText: "image.png" }).waitFor();
    await page.keyboard.press("Enter");
    const second = await nth(2);
    expect(second.text).toBe("");
    expect(second.attachments[0]).toMatchObject({ name: "image.png", mimeType: "image/png", kind: "image" });
    expect(await attachedBytes(second)).toEqual(PNG);

    // 3. A file dropped onto the conversation, in the group room.
    await page.locator('.room[data-room="group"]').click();
    const notes = Buffer.from([0, 1, 2, 250, 251, 252, 253, 254, 255]);
    await dispatchWithFile(page, "drop", "#log", {
      name: "notes.bin",
      mimeType: "application/octet-stream",
      bytes: notes,
    });
    await page.locator(".chip.ready", { hasText: "notes.bin" }).waitFor();
    await page.locator("#input").fill("dropped in");
    await page.keyboard.press("Enter");
    const third = await nth(3);
    expect(third).toMatchObject({ chatType: "group", chatId: "group", text: "dropped in" });
    expect(await attachedBytes(third)).toEqual(notes);
    await page.locator(".msg.user .file", { hasText: "notes.bin" }).waitFor();

    // Every message came from this one web.browser.
    expect(new Set(web.chat.inbound.map((message) => message.sender.id)).size).toBe(1);
    await page.screenshot({ path: SCREENSHOT });
    await page.close();
  }, 60_000);
});
