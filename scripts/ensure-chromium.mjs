// Installs Debian's chromium for the browser tests, once, before any test starts (two test files installing it at
// the same time fail on dpkg's lock). Never downloads a browser any other way. Called by scripts/bootstrap.mjs for
// `npm test`; a no-op when the browser is already there.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

/** Where Debian's chromium package puts the browser (the tests' default; CHROMIUM_PATH overrides it). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || "/usr/bin/chromium";

function has(command) {
  return spawnSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" }).status === 0;
}

function aptGet(args, say) {
  const asRoot = typeof process.getuid !== "function" || process.getuid() === 0;
  const [cmd, pre] = asRoot ? ["apt-get", []] : ["sudo", ["-n", "apt-get"]];
  say(`${asRoot ? "" : "sudo "}apt-get ${args.join(" ")}`);
  const r = spawnSync(cmd, [...pre, ...args], {
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    timeout: 900_000,
  });
  return r.status === 0;
}

/**
 * Makes sure the browser the Chromium tests drive exists. Contract: returns true when it is there (installed now or
 * before); false after saying, in one line, why it could not be installed (the browser tests then fail with the same
 * advice, the rest of the suite still runs).
 */
export function ensureChromium(say) {
  if (existsSync(CHROMIUM_PATH)) return true;
  if (!has("apt-get")) {
    say(
      `Chromium is missing at ${CHROMIUM_PATH} and apt-get is not available: install Chromium and set CHROMIUM_PATH ` +
        "to it, or the browser tests fail",
    );
    return false;
  }
  say(`installing Debian's chromium for the browser tests (missing at ${CHROMIUM_PATH})`);
  // A fresh machine's package lists may not know the package yet: update once, then try again.
  const installed =
    aptGet(["install", "-y", "--no-install-recommends", "chromium"], say) ||
    (aptGet(["update"], say) && aptGet(["install", "-y", "--no-install-recommends", "chromium"], say));
  if (installed && existsSync(CHROMIUM_PATH)) return true;
  say(`apt-get could not install chromium (${CHROMIUM_PATH} is still missing): the browser tests will fail`);
  return false;
}
