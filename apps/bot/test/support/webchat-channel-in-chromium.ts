import type { Browser } from "playwright-core";
import { chromium } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { CHROMIUM_ARGS, chromiumPath } from "./chromium.js";
import { removeDataDir, startWebchatFixture, type WebchatFixture } from "./webchat-channel-fixture.js";

/** A 1×1 PNG, as a pasted screenshot or a small chart would be. */
export const TINY_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

/** The file's WebChat channel and headless Chromium, both started before its tests and gone after them. */
export interface WebchatInChromium {
  readonly chat: WebchatFixture;
  readonly browser: Browser;
}

/**
 * Registers the file's `beforeAll` (a WebChat channel with a sink, then Chromium) and `afterAll` (both closed, the data
 * dir removed). Contract: call at the top level of a test file; read the fields inside tests only.
 */
export function webchatInChromium(): WebchatInChromium {
  const parts: { chat?: WebchatFixture; browser?: Browser } = {};
  beforeAll(async () => {
    const executablePath = chromiumPath();
    parts.chat = await startWebchatFixture();
    parts.browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  }, 120_000);
  afterAll(async () => {
    await parts.browser?.close();
    await parts.chat?.stop();
    if (parts.chat !== undefined) await removeDataDir(parts.chat);
  });
  return {
    get chat() {
      return parts.chat as WebchatFixture;
    },
    get browser() {
      return parts.browser as Browser;
    },
  };
}
