import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";

/** Debian's chromium package installs the browser here. */
export const CHROMIUM_PATH = "/usr/bin/chromium";

/** Flags for a quiet, offline, headless Chromium in a container. */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * Makes sure Debian's chromium is installed (apt-get install -y chromium when it is missing); never downloads a
 * browser any other way. Contract: returns the executable path or throws with apt-get's error.
 */
export function ensureChromium(): string {
  if (!existsSync(CHROMIUM_PATH)) {
    execFileSync("apt-get", ["install", "-y", "chromium"], { stdio: "inherit", timeout: 300_000 });
  }
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`apt-get install chromium did not provide ${CHROMIUM_PATH}`);
  return CHROMIUM_PATH;
}
