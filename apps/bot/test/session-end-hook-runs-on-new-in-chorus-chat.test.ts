import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chatCommand } from "../src/cli/chat-command.js";
import { captureIo } from "./support/capture-io.js";

// The whole path of `chorus chat`: chorus.config.yaml's `hooks.session_end` reaches the gateway the bot builds.
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "chorus-session-end-chat-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function waitFor(condition: () => Promise<boolean> | boolean): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("session_end hooks in chorus chat", () => {
  it("/new runs the configured hook with the event on stdin, in the config file's folder", async () => {
    await writeFile(
      join(dir, "chorus.config.yaml"),
      [
        "dataDir: ./data",
        "agents:",
        "  - id: assistant",
        "    model: demo",
        "    hooks:",
        "      session_end:",
        "        - command: cat >> ended.jsonl",
        "",
      ].join("\n"),
    );
    const stdin = new PassThrough();
    const io = { ...captureIo(dir, { CHORUS_WEBCHAT_PORT: "0" }), stdin };
    const done = chatCommand(io, undefined);
    stdin.write("hello\n");
    await waitFor(() => io.out().includes("chorus ›"));
    stdin.write("/new\n");
    const ended = () => readFile(join(dir, "ended.jsonl"), "utf8").catch(() => "");
    await waitFor(async () => (await ended()).length > 0);
    stdin.end();
    expect(await done).toBe(0);
    expect(JSON.parse(await ended())).toMatchObject({ event: "session_end", agent: "assistant", reason: "cleared" });
  }, 60_000);
});
