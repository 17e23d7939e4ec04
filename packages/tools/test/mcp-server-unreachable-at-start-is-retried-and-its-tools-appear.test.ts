import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { type McpServerState, SupervisedMcpServer } from "../src/mcp/supervised-mcp-server.js";
import { runTool } from "./support/temp-workspace.js";

const serverScript = fileURLToPath(new URL("./fixtures/mcp-demo-server.mjs", import.meta.url));

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("an MCP server unreachable at start", () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it("is retried with the backoff, and once it answers its tools are listed and work", async () => {
    const dir = await mkdtemp(join(tmpdir(), "mcp-late-"));
    const flag = join(dir, "down");
    await writeFile(flag, "held down");
    const states: McpServerState[] = [];
    const server = await SupervisedMcpServer.open(
      {
        name: "late",
        transport: "stdio",
        command: process.execPath,
        args: [serverScript, "--stdio"],
        env: { MCP_DOWN_FLAG: flag },
      },
      { reconnectDelaysMs: [50], onStateChange: (_name, state) => states.push(state) },
    );
    cleanups.push(
      () => server.close(),
      () => rm(dir, { recursive: true, force: true }),
    );
    expect(server.state).toBe("failed");
    expect(server.tools).toEqual([]);
    expect(server.reason).toBeTruthy();
    // Several attempts fail while it is held down: still failed, still no tools, no state change per attempt.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(server.state).toBe("failed");
    expect(server.tools).toEqual([]);

    await rm(flag);
    await until(() => server.state === "connected");
    expect(server.tools.map((tool) => tool.name)).toContain("mcp__late__echo");
    expect((await runTool([...server.tools], "mcp__late__echo", { text: "hello" })).text).toBe("echo: hello");
    expect(states).toEqual(["failed", "connected"]);
  }, 15_000);

  it("stops retrying once closed", async () => {
    const states: McpServerState[] = [];
    const server = await SupervisedMcpServer.open(
      { name: "nowhere", transport: "http", url: "http://127.0.0.1:9/mcp" },
      { reconnectDelaysMs: [20], connectTimeoutMs: 2000, onStateChange: (_name, state) => states.push(state) },
    );
    expect(server.state).toBe("failed");
    await server.close();
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(server.state).toBe("closed");
    expect(states).toEqual(["failed", "closed"]);
  }, 15_000);
});
