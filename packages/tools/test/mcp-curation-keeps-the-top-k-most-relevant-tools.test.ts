import { type AnyAgentTool, defineTool } from "@chorus/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { curateMcpTools } from "../src/mcp/curate-mcp-tools.js";

const tool = (name: string, description: string): AnyAgentTool =>
  defineTool({
    name,
    description,
    parameters: z.object({}),
    category: name.startsWith("mcp__") ? "mcp" : "info",
    execute: () => ({ content: [] }),
  });

const tools = [
  tool("read_file", "Read a file"),
  tool("mcp__github__create_issue", "Open a new issue in a GitHub repository"),
  tool("mcp__github__list_pull_requests", "List the pull requests of a repository"),
  tool("mcp__weather__forecast", "The weather forecast for a city"),
  tool("mcp__calendar__createEvent", "Add an event to the calendar"),
  tool("exec", "Run a shell command"),
];
const names = (list: readonly AnyAgentTool[]) => list.map((t) => t.name);

describe("MCP tool curation (seed 003 step 13)", () => {
  it("keeps the K MCP tools most relevant to the turn's input, every built-in, in the original order", () => {
    expect(names(curateMcpTools(tools, "what's the weather forecast in Paris?", 1))).toEqual([
      "read_file",
      "mcp__weather__forecast",
      "exec",
    ]);
    expect(names(curateMcpTools(tools, "please create an event in my calendar and open an issue", 2))).toEqual([
      "read_file",
      "mcp__github__create_issue",
      "mcp__calendar__createEvent",
      "exec",
    ]);
  });

  it("is deterministic for one input, falls back to list order when nothing matches, and leaves short lists alone", () => {
    const input = "list pull requests";
    expect(curateMcpTools(tools, input, 2)).toEqual(curateMcpTools(tools, input, 2));
    expect(names(curateMcpTools(tools, "hello there", 2))).toEqual([
      "read_file",
      "mcp__github__create_issue",
      "mcp__github__list_pull_requests",
      "exec",
    ]);
    expect(curateMcpTools(tools, "anything", 4)).toBe(tools);
    expect(names(curateMcpTools(tools, "weather", 0))).toEqual(["read_file", "exec"]);
  });
});
