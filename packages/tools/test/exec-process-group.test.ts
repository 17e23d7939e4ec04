import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from "vitest";
import { execTool } from "../src/builtins/exec-tool.js";
import { readFileTool } from "../src/builtins/fs-tools.js";
import { openSessionOutputs } from "../src/workspace/session-outputs.js";
import { openWorkspace, type Workspace } from "../src/workspace/workspace-root.js";
import { isProcessAlive, waitUntilGone } from "./support/pid-probe.js";
import { callContext, makeTempDir, runTool } from "./support/temp-workspace.js";

function childPid(text: string): number {
  const match = /child:(\d+)/.exec(text);
  if (!match?.[1]) throw new Error(`no child pid in ${text}`);
  return Number(match[1]);
}

describe("exec", () => {
  let root: { dir: string; cleanup: () => void };
  let workspace: Workspace;
  const started: number[] = [];
  beforeEach(() => {
    root = makeTempDir();
    workspace = openWorkspace(root.dir);
  });
  afterEach(() => {
    for (const pid of started.splice(0)) if (isProcessAlive(pid)) process.kill(pid, "SIGKILL");
    root.cleanup();
  });

  it("runs in the workspace and reports the exit code and output", async () => {
    const ok = await runTool([execTool(workspace)], "exec", { command: "pwd; echo err >&2" });
    expect(ok.text).toBe(`Exit code 0.\n${workspace.root}\nerr\n`);
    const failed = await runTool([execTool(workspace)], "exec", { command: "exit 3" });
    expect(failed.isError).toBe(true);
    expect(failed.text).toBe("Exit code 3.\n(no output)");
  });

  it("kills the whole process group on timeout, leaving no orphan", async () => {
    const out = await runTool([execTool(workspace)], "exec", {
      command: "sleep 30 & echo child:$!; wait",
      timeout_seconds: 0.3,
    });
    const pid = childPid(out.text);
    started.push(pid);
    expect(out.isError).toBe(true);
    expect(out.text).toMatch(/^Timed out after 0.3 s; the command and its child processes were killed\./);
    expect(await waitUntilGone(pid)).toBe(true);
  });

  it("kills the whole process group on abort", async () => {
    const controller = new AbortController();
    const tool = execTool(workspace);
    const pending = tool.execute(
      { command: "sleep 30 & echo child:$!; sleep 30" },
      callContext({ signal: controller.signal }),
    );
    // Wait until the shell has printed its child's pid into the process table.
    const pidFile = await waitForSleepChild();
    controller.abort();
    const out = await pending;
    const text = out.content[0]?.type === "text" ? out.content[0].text : "";
    expect(text).toMatch(/^Aborted; the command and its child processes were killed\./);
    expect(await waitUntilGone(pidFile)).toBe(true);
  });

  it("kills background children left behind by a shell that exited", async () => {
    const out = await runTool([execTool(workspace)], "exec", {
      command: "(sleep 30 >/dev/null 2>&1 &) ; echo child:started",
    });
    expect(out.text).toContain("Exit code 0.");
    // The detached sleep shares the group; its pid is found through the group scan below.
    expect(await noSleepersLeft()).toBe(true);
  });

  it("keeps head and tail of long output, states the total and saves the rest", async () => {
    const saved = makeTempDir("chorus-outputs-test-");
    onTestFinished(saved.cleanup);
    const outputs = openSessionOutputs({ root: saved.dir });
    const tool = execTool(workspace, { headBytes: 100, tailBytes: 100 }, outputs);
    const out = await runTool([tool], "exec", { command: "seq 1 10000" });
    const total = Array.from({ length: 10000 }, (_, i) => `${i + 1}\n`).join("").length;
    expect(out.text).toContain(`bytes cut from the middle of ${total} bytes of output`);
    expect(out.text.startsWith("Exit code 0.\n1\n2\n3\n")).toBe(true);
    expect(out.text).toMatch(/9999\n10000\n\n\[full output saved as output:[0-9a-f-]+\.txt;/);
    const path = /saved as (\S+\.txt);/.exec(out.text)?.[1] ?? "";
    const page = await runTool([readFileTool(workspace, {}, { outputs })], "read_file", {
      path,
      offset: 5000,
      limit: 1,
    });
    expect(page.text).toMatch(/^5000\t5000\n/);
  });

  async function waitForSleepChild(): Promise<number> {
    for (let i = 0; i < 200; i++) {
      const pids = sleepersInWorkspace();
      if (pids.length >= 1) {
        started.push(...pids);
        return pids[0] as number;
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error("sleep child never started");
  }

  function sleepersInWorkspace(): number[] {
    // Processes whose cwd is this test's workspace: the shells and sleeps exec started.
    const pids: number[] = [];
    for (const name of readdirSync("/proc")) {
      if (!/^\d+$/.test(name)) continue;
      try {
        if (readlinkSync(`/proc/${name}/cwd`) !== workspace.root) continue;
        if (readFileSync(`/proc/${name}/comm`, "utf8").trim() !== "sleep") continue;
        if (isProcessAlive(Number(name))) pids.push(Number(name));
      } catch {
        // process ended while we looked
      }
    }
    return pids;
  }

  async function noSleepersLeft(): Promise<boolean> {
    for (let i = 0; i < 100; i++) {
      if (sleepersInWorkspace().length === 0) return true;
      await new Promise((r) => setTimeout(r, 20));
    }
    return false;
  }
});

describe("exec environment", () => {
  it("does not pass the host's secrets to the command by default", async () => {
    const root = makeTempDir();
    process.env.CHORUS_TEST_SECRET = "sk-should-not-leak";
    try {
      const out = await runTool([execTool(openWorkspace(root.dir))], "exec", {
        command: 'echo "[$CHORUS_TEST_SECRET]" "$PATH"',
      });
      expect(out.text).toContain("[]");
      expect(out.text).not.toContain("sk-should-not-leak");
      expect(out.text).toContain(process.env.PATH ?? "");
    } finally {
      delete process.env.CHORUS_TEST_SECRET;
      root.cleanup();
    }
  });
});
