import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chatCommand } from "../src/cli/chat-command.js";
import { captureIo } from "./support/capture-io.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "chorus-chat-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("chorus chat", () => {
  it("holds a conversation with the default agent in the terminal, commands included", async () => {
    const stdin = new PassThrough();
    const io = { ...captureIo(dir, { CHORUS_DATA_DIR: join(dir, "data"), CHORUS_WEBCHAT_PORT: "0" }), stdin };
    const done = chatCommand(io, undefined);
    stdin.write("hello\n");
    while (!io.out().includes("ANTHROPIC_API_KEY")) await new Promise((resolve) => setTimeout(resolve, 20));
    stdin.write("/status\n");
    while (!io.out().includes("Last compaction")) await new Promise((resolve) => setTimeout(resolve, 20));
    stdin.end();
    expect(await done).toBe(0);
    const out = io.out();
    expect(out).toContain("Chorus chat with assistant (model demo)");
    expect(out).toContain("chorus › Hello! I'm Chorus"); // plain text: no Markdown asterisks in a terminal
    expect(out).toMatch(/Agent assistant · model chorus-demo/);
  });
});
