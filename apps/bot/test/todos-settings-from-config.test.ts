import { describe, expect, it } from "vitest";
import { parseBotConfig } from "../src/config/load-bot-config.js";

describe("an agent's session todo list in the bot config (agents[].context.todos)", () => {
  it("is off by default and on when enabled", () => {
    const result = parseBotConfig({
      agents: [
        { id: "a", model: "demo" },
        { id: "b", model: "demo", context: { todos: {} } },
        { id: "c", model: "demo", context: { todos: { enabled: true } } },
      ],
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const [a, b, c] = result.config.agents;
    expect(a?.context.todos).toBeUndefined();
    expect(b?.context.todos).toEqual({ enabled: false });
    expect(c?.context.todos).toEqual({ enabled: true });
  });

  it("refuses a misspelt key instead of ignoring it, naming the exact path", () => {
    const result = parseBotConfig({
      agents: [{ id: "a", model: "demo", context: { todos: { enable: true } } }],
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues[0]?.path).toMatch(/^agents\[0\]\.context\.todos/);
  });
});
