import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ToolResultMessage } from "@chorus/core";
import { createBuiltinTools, WorkingDirectories } from "@chorus/tools";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startHarness } from "./fixtures/gateway-harness.js";

const OWNER = { id: "admin", name: "Admin" };
const exec = (command: string) => ({ toolCalls: [{ name: "exec", args: { command } }] });

describe("a chat's exec directory is fixed per turn (AgentRuntimeSetup.executionContext)", () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "chorus-gw-cwd-"));
    mkdirSync(join(root, "app"));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("set_working_directory applies from the chat's next message, not within the same turn", async () => {
    const dirs = new WorkingDirectories();
    const h = await startHarness({
      script: [
        { toolCalls: [{ name: "set_working_directory", args: { path: "app" } }] },
        exec("basename $(pwd)"),
        "moved",
        exec("basename $(pwd)"),
        "here",
      ],
      gateway: {
        agents: {
          main: {
            tools: createBuiltinTools({ workspaceRoot: root, workingDirectories: dirs }),
            executionContext: dirs.source,
          },
        },
      },
    });
    await h.send({ text: "move to app", sender: OWNER });
    await h.send({ text: "where are you?", sender: OWNER });
    const results = async (key: string) =>
      (await h.store.readTranscript(key))
        .map((e) => e.message)
        .filter((m): m is ToolResultMessage => (m as { role: string }).role === "toolResult")
        .map((m) => (m.content[0] as { text: string }).text);
    const base = root.split("/").at(-1);
    const mine = await results("main:main:test:dm:admin");
    expect(mine[1]).toBe(`Exit code 0.\n${base}\n`);
    expect(mine[2]).toBe("Exit code 0.\napp\n");
    expect(h.channel.transcript("dm-admin").at(-1)).toBe("here");
    // Another chat of the same agent has not moved.
    expect(dirs.get("main:main:test:dm:user-1")).toBe(".");
    await h.close();
  });
});
