import { fileURLToPath } from "node:url";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM_ARGS, chromiumPath } from "./support/chromium.js";
import { type DemoWebchatBot, startDemoWebchatBot } from "./support/demo-webchat-bot.js";

const SCREENSHOT = fileURLToPath(new URL("./screenshots/webchat.png", import.meta.url));

let bot: DemoWebchatBot;
let browser: Browser;

beforeAll(async () => {
  const executablePath = chromiumPath();
  bot = await startDemoWebchatBot("chorus-chromium-");
  browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await bot?.stop();
});

describe("the WebChat page in headless Chromium", () => {
  it("streams an answer, shows tools and sub-agents live, and /agents shows the tree", async () => {
    const page = await browser.newPage({ viewport: { width: 1100, height: 1300 } });
    await page.goto(bot.runtime.webchatUrl ?? "");
    await page.locator("#status.online").waitFor();
    await expect(page.locator("#identity").textContent()).resolves.toContain("admin");

    await page.locator("#input").fill("hello");
    await page.keyboard.press("Enter");
    const greeting = page.locator(".msg.bot .bubble", { hasText: "ANTHROPIC_API_KEY" });
    await greeting.waitFor();
    // Rendered Markdown, not raw asterisks.
    await expect(greeting.locator("strong", { hasText: "Chorus" }).count()).resolves.toBeGreaterThan(0);

    await page.locator("#input").fill("research the workspace");
    await page.keyboard.press("Enter");
    await page.locator(".act.sub", { hasText: "researcher" }).first().waitFor();
    await page.locator("#input").fill("/agents");
    await page.keyboard.press("Enter");
    const fleet = page.locator(".msg.bot .bubble", { hasText: "Fleet" });
    await fleet.waitFor();
    const fleetText = await fleet.textContent();
    expect(fleetText).toMatch(/assistant · depth 0 · running/);
    expect(fleetText).toMatch(/researcher · depth 1/);
    bot.gate.open(); // the researcher was held until now, so the tree above was certainly live
    const report = page.locator(".msg.bot .bubble", { hasText: "Run /agents while a research runs" });
    await report.filter({ hasText: "chorus.config.yaml" }).waitFor(); // the whole reply, streamed to its end
    await expect(page.locator(".act .tool", { hasText: "list_dir" }).count()).resolves.toBeGreaterThan(0);
    await expect(page.locator(".act.sub.done", { hasText: "researcher completed" }).count()).resolves.toBe(1);

    await page.locator(".typing").waitFor({ state: "detached" }); // the run ended: no typing indicator left
    await page.screenshot({ path: SCREENSHOT, fullPage: false });
    await page.close();
  }, 60_000);
});
