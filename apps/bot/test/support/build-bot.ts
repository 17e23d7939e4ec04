import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

/** The repository root. */
export const REPO_ROOT = fileURLToPath(new URL("../../../../", import.meta.url));
/** The built CLI, as `npm start` and the `chorus` bin run it. */
export const BOT_MAIN = fileURLToPath(new URL("../../dist/main.js", import.meta.url));

/**
 * Builds the bot and the workspace packages it depends on (turbo: cached, so quick when nothing changed), so a
 * test can run `node dist/main.js` exactly as `npm start` does.
 * Contract: rejects with turbo's output when the build fails.
 */
export async function buildBot(): Promise<void> {
  const turbo = fileURLToPath(new URL("node_modules/.bin/turbo", `file://${REPO_ROOT}`));
  if (!existsSync(turbo)) throw new Error(`turbo is not installed at ${turbo}`);
  await promisify(execFile)(turbo, ["run", "build", "--filter=@chorus/bot...", "--output-logs=errors-only"], {
    cwd: REPO_ROOT,
    timeout: 240_000,
    maxBuffer: 16 * 1024 * 1024,
  }).catch((error: { stdout?: string; stderr?: string; message: string }) => {
    throw new Error(`building the bot failed: ${error.message}\n${error.stdout ?? ""}\n${error.stderr ?? ""}`);
  });
}
