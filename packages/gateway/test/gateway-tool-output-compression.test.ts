import { defineTool, type ToolResultMessage } from "@chorus/core";
import type { ScriptedTurn } from "@chorus/core/testing";
import { createApprovalPolicy } from "@chorus/tools";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { GatewayConfigError } from "../src/config/index.js";
import { BASE_CONFIG, startHarness } from "./fixtures/gateway-harness.js";

const LOG = Array.from({ length: 1_000 }, (_, i) => `test ${i} passed`).join("\n");
const KEY = "main:main:test:dm:admin";

const exec = defineTool({
  name: "exec",
  description: "runs the tests",
  parameters: z.object({}),
  category: "exec",
  execute: () => ({ content: [{ type: "text", text: LOG }] }),
});

const isSummaryCall = (systemPrompt: string | undefined) =>
  systemPrompt?.startsWith("You are a concise tool-output summarizer") === true;

async function chatWith(taco: Record<string, unknown> | undefined, summariser: ScriptedTurn = "1000 tests passed") {
  let main = 0;
  const h = await startHarness({
    config: {
      ...BASE_CONFIG,
      agents: [{ id: "main", model: "fake-model", ...(taco ? { toolOutputCompression: taco } : {}) }],
    },
    script: (ctx) => {
      if (isSummaryCall(ctx.systemPrompt)) return summariser;
      main++;
      return main === 1 ? { toolCalls: [{ name: "exec", args: {} }] } : "All green.";
    },
    gateway: { agents: { main: { tools: [exec] } } },
  });
  // The owner (an admin) may run exec.
  await h.send({ text: "run the tests", sender: { id: "admin", name: "Admin" } });
  const stored = (await h.store.readTranscript(KEY))
    .map((entry) => entry.message)
    .find((m): m is ToolResultMessage => (m as { role: string }).role === "toolResult");
  const summaryCalls = h.streamFn.calls.filter((c) => isSummaryCall(c.context.systemPrompt));
  const toolEnd = h.events.find((e) => e.type === "tool_activity" && e.phase === "end") as
    | { compressed?: unknown }
    | undefined;
  await h.close();
  return { h, stored, summaryCalls, toolEnd };
}

describe("TACO through the gateway (agents[].toolOutputCompression)", () => {
  it("summarises a large exec output with the configured model; the stored result is tagged and keeps the raw output", async () => {
    const { h, stored, summaryCalls, toolEnd } = await chatWith({ enabled: true, model: "fake-large" });
    // The audit trail (the gateway's events) says the model read a summary.
    expect(toolEnd?.compressed).toMatchObject({ model: "fake-large", compressedTokens: expect.any(Number) });
    expect(h.channel.transcript("dm-admin").at(-1)).toBe("All green.");
    expect(summaryCalls.map((c) => c.model.id)).toEqual(["fake-large"]);
    expect((stored!.content[0] as { text: string }).text).toContain("1000 tests passed");
    expect(stored!.compressed).toMatchObject({ by: "taco", model: "fake-large" });
    expect((stored!.compressed!.raw[0] as { text: string }).text).toBe(LOG);
  });

  it("is off unless configured", async () => {
    const { stored, summaryCalls, toolEnd } = await chatWith(undefined);
    expect(toolEnd?.compressed).toBeUndefined();
    expect(summaryCalls).toHaveLength(0);
    expect(stored!.compressed).toBeUndefined();
  });

  it("keeps the raw output when the summariser fails, and the chat still gets its answer", async () => {
    const { h, stored, summaryCalls } = await chatWith(
      { enabled: true },
      { fault: "error", error: { kind: "overloaded", message: "busy", status: 529 } },
    );
    expect(summaryCalls).toHaveLength(1);
    expect((stored!.content[0] as { text: string }).text).toBe(LOG);
    expect(stored!.compressed).toBeUndefined();
    expect(h.channel.transcript("dm-admin").at(-1)).toBe("All green.");
  });

  it("refuses to start with a summariser model the catalog does not know", async () => {
    await expect(
      startHarness({
        config: {
          ...BASE_CONFIG,
          agents: [{ id: "main", model: "fake-model", toolOutputCompression: { enabled: true, model: "gpt-99" } }],
        },
      }),
    ).rejects.toThrow(GatewayConfigError);
  });

  it("NEVER summarises the output of a call approved in the chat", async () => {
    let main = 0;
    const h = await startHarness({
      config: {
        ...BASE_CONFIG,
        agents: [{ id: "main", model: "fake-model", toolOutputCompression: { enabled: true } }],
      },
      script: (ctx) => {
        if (isSummaryCall(ctx.systemPrompt)) return "1000 tests passed";
        main++;
        return main === 1 ? { toolCalls: [{ name: "exec", args: {} }] } : "All green.";
      },
      // Without buttons the request names the /approve code.
      channel: { capabilities: { buttons: false } },
      gateway: { agents: { main: { tools: [exec], policies: [createApprovalPolicy({ require: ["exec"] })] } } },
    });
    await h.channel.inject({ text: "run the tests", sender: { id: "admin", name: "Admin" } });
    let code = "";
    await vi.waitFor(() => {
      code = /`\/approve ([a-z0-9]+)`/.exec(h.channel.transcript("dm-admin").at(-1) ?? "")?.[1] ?? "";
      expect(code).not.toBe("");
    });
    await h.send({ text: `/approve ${code}`, sender: { id: "admin", name: "Admin" } });
    await h.gateway.idle();
    expect(h.channel.transcript("dm-admin").at(-1)).toBe("All green.");
    expect(h.streamFn.calls.filter((c) => isSummaryCall(c.context.systemPrompt))).toHaveLength(0);
    const stored = (await h.store.readTranscript(KEY))
      .map((entry) => entry.message)
      .find((m): m is ToolResultMessage => (m as { role: string }).role === "toolResult");
    expect((stored!.content[0] as { text: string }).text).toBe(LOG);
    expect(stored!.compressed).toBeUndefined();
    await h.close();
  });
});
