import { existsSync } from "node:fs";

/** Debian's chromium package installs the browser here; `CHROMIUM_PATH` points elsewhere. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || "/usr/bin/chromium";

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
 * The browser the Chromium tests drive. `npm test` installs Debian's chromium once before any test starts
 * (`scripts/ensure-chromium.mjs`); a test file never installs it (two workers would race on dpkg's lock).
 * Contract: returns the executable path or throws saying how to get it.
 */
export function chromiumPath(): string {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium is missing at ${CHROMIUM_PATH}: run \`npm test\` once (its setup, scripts/ensure-chromium.mjs, ` +
        "brings Debian's chromium package), or set CHROMIUM_PATH to a Chromium you have",
    );
  }
  return CHROMIUM_PATH;
}
