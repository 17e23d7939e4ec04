import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const loggerModule = fileURLToPath(new URL("../dist/logging/bot-logger.js", import.meta.url));

// JSON lines reach stdout before the call that logs them returns: none may be lost when the process ends the way a bot
// ends on a fatal start-up error, exit() right after logging, while the reader of the pipe is slower than the writer.
// (With process.stdout as the destination this lost from 1 000 to 4 000 of the 5 001 lines.)
describe("JSON log lines", () => {
  it("all reach a pipe, in order and scrubbed, when the process exits right after writing them", async () => {
    const script = [
      `const { createBotLogger } = await import(${JSON.stringify(loggerModule)});`,
      'const logger = createBotLogger({ level: "info", format: "json", secrets: ["configured-secret-1"], isTTY: false });',
      'for (let i = 0; i < 5000; i++) logger.info({ i, note: "configured-secret-1" }, "line");',
      'logger.fatal("last words");',
      "process.exit(3);",
    ].join("\n");
    const outcome = await run(process.execPath, ["--input-type=module", "-e", script], {
      maxBuffer: 64 * 1024 * 1024,
    }).then(
      () => ({ code: 0, stdout: "" }),
      (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
    );
    expect(outcome.code).toBe(3);
    const lines = outcome.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { i?: number; msg: string; note?: string });
    expect(lines).toHaveLength(5001);
    expect(lines.slice(0, 5000).map((line) => line.i)).toEqual([...Array(5000).keys()]);
    expect(lines.at(-1)?.msg).toBe("last words");
    expect(outcome.stdout).not.toContain("configured-secret-1");
  }, 30_000);
});
