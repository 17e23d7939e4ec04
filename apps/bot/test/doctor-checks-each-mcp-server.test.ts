import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { doctorCommand } from "../src/cli/doctor/doctor-command.js";
import { parseBotConfig } from "../src/config/load-bot-config.js";
import { startNotesHttpServer } from "./fixtures/mcp-notes-server.mjs";
import { captureIo } from "./support/capture-io.js";

const notesScript = fileURLToPath(new URL("./fixtures/mcp-notes-server.mjs", import.meta.url));
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "chorus-doctor-mcp-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("chorus doctor and mcpServers", () => {
  it("connects each agent's MCP servers, passes the reachable ones with their tools and fails the others", async () => {
    const web = await startNotesHttpServer("web");
    try {
      const config = {
        dataDir: join(dir, "data"),
        agents: [
          {
            id: "assistant",
            model: "demo",
            mcpServers: [
              { name: "notes", transport: "stdio", command: process.execPath, args: [notesScript, "--stdio"] },
              { name: "web", transport: "http", url: web.url, headers: { authorization: "Bearer mcp-secret-000" } },
              { name: "gone", transport: "http", url: "http://127.0.0.1:9/mcp" },
            ],
          },
          {
            id: "helper",
            model: "demo",
            mcpServers: [{ name: "broken", transport: "stdio", command: "/nonexistent/mcp" }],
          },
        ],
      };
      await writeFile(join(dir, "chorus.config.json"), JSON.stringify(config));
      const io = captureIo(dir, {});
      expect(await doctorCommand(io, undefined)).toBe(1);
      const out = io.out();
      expect(out).toMatch(/^PASS {2}mcp\/assistant\/notes\s+connected over stdio: 6 tool\(s\) \(add_note, list_notes/m);
      expect(out).toMatch(/^PASS {2}mcp\/assistant\/web\s+connected over http: 6 tool\(s\)/m);
      expect(out).toMatch(/^FAIL {2}mcp\/assistant\/gone\s+cannot connect over http: /m);
      expect(out).toMatch(/^FAIL {2}mcp\/helper\/broken\s+cannot connect over stdio: /m);
      expect(out).toContain("2 check(s) failed.");
      expect(out).not.toContain("mcp-secret-000");
    } finally {
      await web.close();
    }
  }, 60_000);

  it("a bad server entry is a config error naming its path", () => {
    const parsed = parseBotConfig({
      agents: [
        {
          id: "main",
          model: "demo",
          mcpServers: [
            { name: "dup", transport: "stdio", command: "node" },
            { name: "dup", transport: "http", url: "ftp://example.com/mcp" },
            { name: "no spaces", transport: "stdio", command: "" },
          ],
        },
      ],
    });
    expect(parsed.ok).toBe(false);
    const text = JSON.stringify(parsed.ok ? [] : parsed.issues);
    expect(text).toContain("another server is already named dup");
    expect(text).toContain("expected an http:// or https:// URL");
    expect(text).toContain("expected a server name");
    expect(text).toContain("expected the command that starts the server");
  });
});
