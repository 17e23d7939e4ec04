import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { Agent, type ToolResultMessage, toLlmTool } from "@chorus/core";
import { fakeModel, scriptedStreamFn } from "@chorus/core/testing";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import { connectMcpServers, type McpConnections } from "../src/mcp/connect-mcp-servers.js";
import { mcpToolName } from "../src/mcp/mcp-tool-name.js";
import { buildDemoServer } from "./fixtures/mcp-demo-server.mjs";
import { waitUntilGone } from "./support/pid-probe.js";
import { runTool } from "./support/temp-workspace.js";

const serverScript = fileURLToPath(new URL("./fixtures/mcp-demo-server.mjs", import.meta.url));

async function startHttpMcp(): Promise<{ url: string; close: () => Promise<void> }> {
  const http: Server = createServer(async (req, res) => {
    // Stateless mode: a fresh server and transport per request, as the SDK recommends.
    const server = buildDemoServer();
    const transport = new StreamableHTTPServerTransport({});
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: async () => {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

describe("MCP bridge", () => {
  let connections: McpConnections | undefined;
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await connections?.close();
    connections = undefined;
    for (const c of cleanups.splice(0)) await c();
  });

  it("names tools mcp__<server>__<tool> within 64 safe characters", () => {
    expect(mcpToolName("my.server", "do thing")).toBe("mcp__my_server__do_thing");
    expect(mcpToolName("s", "x".repeat(100))).toHaveLength(64);
  });

  it("connects over stdio, calls tools and stops the server process on close", async () => {
    connections = await connectMcpServers([
      { name: "demo", transport: "stdio", command: process.execPath, args: [serverScript, "--stdio"] },
    ]);
    expect(connections.servers).toEqual([
      {
        name: "demo",
        status: "connected",
        toolNames: ["mcp__demo__echo", "mcp__demo__add", "mcp__demo__explode", "mcp__demo__whoami"],
      },
    ]);
    const tools = connections.tools;
    expect(tools.every((t) => t.category === "mcp")).toBe(true);
    expect((await runTool(tools, "mcp__demo__echo", { text: "hi" })).text).toBe("echo: hi");
    const sum = await runTool(tools, "mcp__demo__add", { a: 2, b: 3 });
    expect(sum.text).toBe("5");
    expect(sum.details).toEqual({ structuredContent: { sum: 5 } });
    expect(tools.find((t) => t.name === "mcp__demo__add")?.concurrencySafe).toBe(true);
    const failed = await runTool(tools, "mcp__demo__explode", {});
    expect(failed).toMatchObject({ isError: true, text: "kaboom" });
    const pid = Number((await runTool(tools, "mcp__demo__whoami", {})).text);
    await connections.close();
    connections = undefined;
    expect(await waitUntilGone(pid)).toBe(true);
  });

  it("connects over Streamable HTTP and validates arguments against the tool's JSON Schema", async () => {
    const http = await startHttpMcp();
    cleanups.push(http.close);
    connections = await connectMcpServers([{ name: "web", transport: "http", url: http.url }]);
    const echo = connections.tools.find((t) => t.name === "mcp__web__echo");
    if (!echo) throw new Error("echo missing");
    expect((await runTool(connections.tools, "mcp__web__echo", { text: "over http" })).text).toBe("echo: over http");
    // Bypass zod to prove the JSON Schema check itself refuses a bad call before the server sees it.
    const bad = await echo.execute(
      { text: 42 },
      {
        signal: new AbortController().signal,
        toolCallId: "c",
        onUpdate: () => {},
        run: { runId: "r", depth: 0 },
        addUsage: () => {},
      },
    );
    expect(bad.isError).toBe(true);
    expect(bad.content[0]).toMatchObject({
      type: "text",
      text: expect.stringMatching(/^Invalid arguments for echo: .*string/),
    });
    expect(echo.parameters.safeParse({}).success).toBe(false);
  });

  it("works as core tools: the model sees the server's schema and a bad call is refused", async () => {
    connections = await connectMcpServers([
      { name: "demo", transport: "stdio", command: process.execPath, args: [serverScript, "--stdio"] },
    ]);
    const add = connections.tools.find((t) => t.name === "mcp__demo__add");
    if (!add) throw new Error("add missing");
    expect(toLlmTool(add).parameters).toMatchObject({
      type: "object",
      properties: { a: { type: "number" }, b: { type: "number" } },
      required: ["a", "b"],
    });
    const streamFn = scriptedStreamFn([
      {
        toolCalls: [
          { name: "mcp__demo__add", args: { a: 2, b: 40 } },
          { name: "mcp__demo__echo", args: { text: 7 } },
        ],
      },
      "done",
    ]);
    const agent = new Agent({ model: fakeModel(), streamFn, tools: connections.tools });
    await agent.prompt("add");
    const results = agent.state.messages.filter(
      (m): m is ToolResultMessage => (m as { role?: string }).role === "toolResult",
    );
    expect(results.map((r) => [r.toolName, r.isError])).toEqual([
      ["mcp__demo__add", false],
      ["mcp__demo__echo", true],
    ]);
    expect(results[0]?.content).toEqual([{ type: "text", text: "42" }]);
  });

  it("reports a failing server, skips it and still loads the others", async () => {
    const http = await startHttpMcp();
    cleanups.push(http.close);
    const errors: string[] = [];
    connections = await connectMcpServers(
      [
        { name: "broken", transport: "stdio", command: "/nonexistent/mcp-server" },
        { name: "gone", transport: "http", url: "http://127.0.0.1:1/mcp" },
        { name: "web", transport: "http", url: http.url },
      ],
      { onServerError: (name) => errors.push(name), connectTimeoutMs: 5000 },
    );
    expect(errors.sort()).toEqual(["broken", "gone"]);
    expect(connections.servers.map((s) => [s.name, s.status])).toEqual([
      ["broken", "failed"],
      ["gone", "failed"],
      ["web", "connected"],
    ]);
    expect(connections.tools.map((t) => t.name)).toContain("mcp__web__echo");
  });
});
