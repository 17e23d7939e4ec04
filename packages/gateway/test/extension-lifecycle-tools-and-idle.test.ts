import { defineTool, type StreamContext } from "@chorus/core";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import type { GatewayExtension } from "../src/extension/index.js";
import { execProbe } from "./fixtures/exec-probe.js";
import { chatTexts, type Harness, startHarness } from "./fixtures/gateway-harness.js";

/** An extension that writes down, in `log`, each lifecycle call it gets. */
function recording(name: string, log: string[], extra: Partial<GatewayExtension> = {}): GatewayExtension {
  return {
    name,
    start: () => {
      log.push(`${name} start`);
    },
    stop: () => {
      log.push(`${name} stop`);
    },
    ...extra,
  };
}

describe("an extension's lifecycle, tools and idle sessions", () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it("starts in order before the first message and stops in reverse order with the gateway", async () => {
    const log: string[] = [];
    h = await startHarness({
      script: () => "hi",
      gateway: { extensions: [recording("first", log), recording("second", log)] },
    });
    expect(log).toEqual(["first start", "second start"]);
    await h.send({ text: "hello" });
    await h.close();
    h = undefined;
    expect(log).toEqual(["first start", "second start", "second stop", "first stop"]);
  });

  it("a start that fails fails the gateway's start and stops the extensions already started", async () => {
    const log: string[] = [];
    const failing = recording("failing", log, {
      start: () => {
        throw new Error("no API key");
      },
    });
    await expect(startHarness({ gateway: { extensions: [recording("first", log), failing] } })).rejects.toThrow(
      "no API key",
    );
    expect(log).toEqual(["first start", "first stop"]);
  });

  it("offers its tools to the agent's turns, under the same trust-tier gate as the agent's own", async () => {
    const asked: string[] = [];
    const forecast = defineTool({
      name: "forecast",
      description: "the forecast for a city",
      parameters: z.object({ city: z.string() }),
      category: "info",
      execute: async ({ city }) => {
        asked.push(city);
        return { content: [{ type: "text", text: `${city}: rain` }] };
      },
    });
    const probe = execProbe();
    const script = (context: StreamContext) => {
      const last = context.messages.at(-1) as { role: string; content: unknown };
      if (last.role === "toolResult") return `tool said ${JSON.stringify(last.content)}`;
      const wantsExec = JSON.stringify(last.content).includes("shell");
      return wantsExec
        ? { toolCalls: [{ name: "exec", args: { command: "id" } }] }
        : { toolCalls: [{ name: "forecast", args: { city: "Oslo" } }] };
    };
    h = await startHarness({
      config: {
        agents: [{ id: "main", model: "fake-model" }],
        channels: [{ channel: "test", admins: ["owner"], groups: { g1: { requireMention: false, trust: "guest" } } }],
      },
      script,
      gateway: {
        extensions: [{ name: "weather", toolsFor: (agentId) => (agentId === "main" ? [forecast, probe.tool] : []) }],
      },
    });
    const guest = { chatType: "group" as const, chatId: "g1", sender: { id: "stranger", name: "Stranger" } };
    await h.send({ ...guest, sender: { id: "owner", name: "Owner" }, text: "weather?" });
    expect(asked).toEqual(["Oslo"]);
    expect(chatTexts(h.channel, "g1").at(-1)).toContain("Oslo: rain");
    // An extension's exec tool is still refused to a guest.
    await h.send({ ...guest, text: "run a shell command" });
    expect(probe.commands).toEqual([]);
    expect(chatTexts(h.channel, "g1").at(-1)).toContain("is not available to a guest user");
  });

  it("hears when a session has been idle long enough to be let go, and after each turn how it ended", async () => {
    const idle: string[] = [];
    const turns: string[] = [];
    h = await startHarness({
      script: () => "hi",
      gateway: {
        idleEvictMs: 0,
        extensions: [
          {
            name: "watcher",
            sessionIdle: ({ sessionKey }) => {
              idle.push(sessionKey);
            },
            afterTurn: ({ outcome, agentId }) => {
              turns.push(`${agentId} ${outcome}`);
            },
          },
        ],
      },
    });
    await h.send({ text: "hello" });
    expect(turns).toEqual(["main completed"]);
    const [session] = await h.store.listSessions();
    expect(idle).toEqual([session?.key]);
  });
});
