import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM_ARGS, chromiumPath } from "./support/chromium.js";
import { type DemoWebchatBot, startDemoWebchatBot } from "./support/demo-webchat-bot.js";

// WebChat bound off the local-only addresses (127.0.0.2 stands for a public one) with an access token, in a real
// browser: the page asks for the token once, refuses a wrong one, and then the chat works, also after a reload.

const TOKEN = "tok-chromium-5d1e9a7b3c2f-webchat";

let bot: DemoWebchatBot;
let browser: Browser;

beforeAll(async () => {
  const executablePath = chromiumPath();
  bot = await startDemoWebchatBot("chorus-chromium-token-", { host: "127.0.0.2", accessToken: TOKEN });
  browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await bot?.stop();
});

describe("the WebChat access-token form in headless Chromium", () => {
  it("asks once, refuses a wrong token, then opens the chat for good", async () => {
    const url = bot.runtime.webchatUrl ?? "";
    expect(url).toMatch(/^http:\/\/127\.0\.0\.2:/);
    const page = await browser.newPage();
    await page.goto(url);
    expect(new URL(page.url()).pathname).toBe("/login");

    await page.locator("#token").fill("a wrong token, surely");
    await page.locator("button[type=submit]").click();
    await page.locator(".login-error", { hasText: "not right" }).waitFor();

    await page.locator("#token").fill(TOKEN);
    await page.locator("button[type=submit]").click();
    await page.locator("#status.online").waitFor();
    expect(new URL(page.url()).pathname).toBe("/");
    // Scripts cannot read either cookie.
    await expect(page.evaluate("document.cookie")).resolves.toBe("");

    await page.locator("#input").fill("hello");
    await page.keyboard.press("Enter");
    await page.locator(".msg.bot .bubble", { hasText: "ANTHROPIC_API_KEY" }).waitFor();

    // Asked once: a reload goes straight to the chat, with the conversation.
    await page.reload();
    await page.locator("#status.online").waitFor();
    expect(new URL(page.url()).pathname).toBe("/");
    await page.locator(".msg.user .bubble", { hasText: "hello" }).waitFor();
    await page.close();
  }, 60_000);
});
