import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { InboundMessage } from "@chorus/gateway";
import { describe, expect, it } from "vitest";
import { TINY_PNG as PNG, webchatInChromium } from "./support/webchat-channel-in-chromium.js";

// A file the bot sends (Channel.sendFile) shows in the WebChat page as a message with its caption and a download
// link — an image also inline — the download gives the very bytes sent, the message is still there after a reload,
// and another browser cannot download it.

const SCREENSHOT = fileURLToPath(new URL("./screenshots/webchat-sent-files.png", import.meta.url));

// Fields read inside the tests: both start in the file's beforeAll.
const web = webchatInChromium();

describe("files the bot sends, in WebChat in headless Chromium", () => {
  it("shows a download link and an image preview; the bytes download intact, also after a reload", async () => {
    const context = await web.browser.newContext({ acceptDownloads: true, viewport: { width: 1000, height: 900 } });
    const page = await context.newPage();
    await page.goto(web.chat.url);
    await page.locator("#status.online").waitFor();
    await page.locator("#input").fill("send me the report");
    await page.keyboard.press("Enter");
    await web.chat.until(() => web.chat.inbound.length === 1);
    const dm = { chatType: "dm" as const, chatId: (web.chat.inbound[0] as InboundMessage).chatId };

    const report = Buffer.concat([
      Buffer.from("%PDF-1.7\n"),
      Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 256)),
    ]);
    await web.chat.channel.sendFile(dm, {
      bytes: report,
      name: "Q3 report.pdf",
      mimeType: "application/pdf",
      asPhoto: false,
      caption: "Here is **the report**",
    });
    await web.chat.channel.sendFile(dm, { bytes: PNG, name: "chart.png", mimeType: "image/png", asPhoto: true });

    const link = page.locator(".msg.bot .file a.file-name", { hasText: "Q3 report.pdf" });
    await link.waitFor();
    await page.locator(".msg.bot .bubble strong", { hasText: "the report" }).waitFor(); // the caption, rendered
    const preview = page.locator(".msg.bot img.preview");
    await preview.waitFor();
    const loadedWidth = 'document.querySelector(".msg.bot img.preview").naturalWidth';
    await expect.poll(() => page.evaluate(loadedWidth)).toBe(1); // the image itself, loaded from /files/…

    const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
    expect(download.suggestedFilename()).toBe("Q3 report.pdf");
    expect(await readFile(await download.path())).toEqual(report);
    const href = (await link.getAttribute("href")) ?? "";
    expect(href).toMatch(/^\/files\/[A-Za-z0-9_-]{32}$/);

    // After a reload the file message is still there, with a working link.
    await page.reload();
    await page.locator("#status.online").waitFor();
    const again = page.locator(".msg.bot .file a.file-name", { hasText: "Q3 report.pdf" });
    await again.waitFor();
    expect(await again.getAttribute("href")).toBe(href);
    await page.locator(".msg.bot img.preview").waitFor();
    const [second] = await Promise.all([page.waitForEvent("download"), again.click()]);
    expect(await readFile(await second.path())).toEqual(report);
    await page.screenshot({ path: SCREENSHOT });

    // Another browser (its own cookie) does not get this DM's file.
    const other = await web.browser.newContext();
    const otherPage = await other.newPage();
    await otherPage.goto(web.chat.url);
    await otherPage.locator("#status.online").waitFor();
    await expect(otherPage.locator(".file").count()).resolves.toBe(0);
    const answer = await otherPage.request.get(new URL(href, web.chat.url).toString());
    expect(answer.status()).toBe(404);
    await other.close();
    await context.close();
  }, 60_000);
});
