import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import { type McpServerState, SupervisedMcpServer } from "../src/mcp/supervised-mcp-server.js";
import { buildDemoServer } from "./fixtures/mcp-demo-server.mjs";
import { waitUntilGone } from "./support/pid-probe.js";
import { runTool } from "./support/temp-workspace.js";

const serverScript = fileURLToPath(new URL("./fixtures/mcp-demo-server.mjs", import.meta.url));

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A stateless Streamable HTTP MCP server on 127.0.0.1 (`port` 0: a free one). */
async function serveHttp(port = 0): Promise<{ port: number; close: () => Promise<void> }> {
  const http: Server = createServer(async (req, res) => {
    const server = buildDemoServer();
    const transport = new StreamableHTTPServerTransport({});
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => http.listen(port, "127.0.0.1", resolve));
  return {
    port: (http.address() as AddressInfo).port,
    close: async () => {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

describe("a supervised MCP server", () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it("killed, answers unavailable without calling it, then reconnects and its same tools work again", async () => {
    const dir = await mkdtemp(join(tmpdir(), "mcp-down-"));
    const flag = join(dir, "down");
    const states: McpServerState[] = [];
    const server = await SupervisedMcpServer.open(
      {
        name: "demo",
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
    expect(server.state).toBe("connected");
    const tools = [...server.tools];
    expect(tools.map((tool) => tool.name)).toContain("mcp__demo__whoami");
    const firstPid = Number((await runTool(tools, "mcp__demo__whoami", {})).text);

    await writeFile(flag, "held down");
    process.kill(firstPid, "SIGKILL");
    await until(() => server.state === "reconnecting");
    expect(server.available).toBe(false);
    const meanwhile = await runTool(tools, "mcp__demo__echo", { text: "hi" });
    expect(meanwhile.isError).toBe(true);
    expect(meanwhile.text).toMatch(/MCP server "demo" is unavailable/);
    // Held down for a while: several attempts fail, it stays unavailable.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(server.state).toBe("reconnecting");

    await rm(flag);
    await until(() => server.state === "connected");
    expect(server.tools).toEqual(tools);
    const secondPid = Number((await runTool(tools, "mcp__demo__whoami", {})).text);
    expect(secondPid).not.toBe(firstPid);
    expect((await runTool(tools, "mcp__demo__echo", { text: "back" })).text).toBe("echo: back");
    expect(states).toEqual(["connected", "reconnecting", "connected"]);

    await server.close();
    expect(await waitUntilGone(secondPid)).toBe(true);
  }, 30_000);

  it("over HTTP: a call that finds the server gone marks it unavailable until it answers again", async () => {
    let http = await serveHttp();
    const server = await SupervisedMcpServer.open(
      { name: "web", transport: "http", url: `http://127.0.0.1:${http.port}/mcp` },
      { reconnectDelaysMs: [50] },
    );
    cleanups.push(
      () => server.close(),
      () => http.close(),
    );
    const tools = [...server.tools];
    expect((await runTool(tools, "mcp__web__echo", { text: "one" })).text).toBe("echo: one");

    await http.close();
    const lost = await runTool(tools, "mcp__web__echo", { text: "two" });
    expect(lost.isError).toBe(true);
    expect(server.state).toBe("reconnecting");
    expect((await runTool(tools, "mcp__web__echo", { text: "three" })).text).toMatch(/MCP server "web" is unavailable/);

    http = await serveHttp(http.port);
    await until(() => server.state === "connected");
    expect((await runTool(tools, "mcp__web__echo", { text: "four" })).text).toBe("echo: four");
  }, 30_000);

  it("unreachable at the first attempt is failed with no tools and a reason", async () => {
    const server = await SupervisedMcpServer.open(
      { name: "nowhere", transport: "http", url: "http://127.0.0.1:9/mcp" },
      { connectTimeoutMs: 5000 },
    );
    cleanups.push(() => server.close());
    expect(server.state).toBe("failed");
    expect(server.tools).toEqual([]);
    expect(server.reason).toBeTruthy();
  }, 15_000);
});
