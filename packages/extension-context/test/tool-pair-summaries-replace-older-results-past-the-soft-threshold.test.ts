import { type StreamContext, TOOL_PAIR_SUMMARY_MARKER } from "@chorus/core";
import { autonomyExtension } from "@chorus/extension-autonomy";
import type { GatewayConfigInput } from "@chorus/gateway";
import { HARNESS_CONFIG, type Harness, startHarness } from "@chorus/gateway-testing";
import { afterEach, describe, expect, it } from "vitest";
import { contextExtension, contextSettingsSchema, TOOL_PAIR_SUMMARIES_SETTING } from "../src/index.js";
import {
  ADMIN,
  extensions,
  isSummary,
  KEY,
  pageTool,
  script,
  sentResults,
  summaryCalls,
  turnCalls,
  WINDOW,
} from "./fixtures/tool-pair-gateway.js";

describe("deferred tool-pair summaries in the gateway (issue #34, seed 002's soft threshold)", () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it("summarises each pair through the session's budgeted calls, keeps them with the session, applies them past 60 %", async () => {
    h = await startHarness({ script, gateway: { ...WINDOW, extensions: extensions() } });
    for (let i = 0; i < 3; i++) await h.send({ text: `read page ${i}`, sender: ADMIN });
    // Every summary call names the session and its kind, so a budget reserves and books it like a turn's call.
    expect(summaryCalls(h)).toHaveLength(3);
    for (const call of summaryCalls(h)) {
      expect(call.options).toMatchObject({ sessionId: KEY, purpose: "tool_pair_summary" });
    }
    const stored = (await h.store.getSession(KEY))?.settings[TOOL_PAIR_SUMMARIES_SETTING] as Record<string, string>;
    expect(Object.keys(stored).sort()).toEqual(["page-0", "page-1", "page-2"]);
    expect(Object.values(stored).sort()).toEqual([
      "page 0 was about words",
      "page 1 was about words",
      "page 2 was about words",
    ]);
    // ~4 500 tokens: under the soft threshold, every result went out whole.
    expect(sentResults(turnCalls(h).at(-1)!.context).every((t) => t.length > 6_000)).toBe(true);

    for (let i = 3; i < 5; i++) await h.send({ text: `read page ${i}`, sender: ADMIN });
    // Page 4's first call (~6 100 tokens) passed 60 %: pages 0–2 gave way to their summaries, page 3 (the most
    // recent then) was kept; with that the request was back under the threshold, so page 4 is sent whole too.
    const last = sentResults(turnCalls(h).at(-1)!.context);
    expect(last.slice(0, 3)).toEqual([0, 1, 2].map((n) => `${TOOL_PAIR_SUMMARY_MARKER}\npage ${n} was about words`));
    expect(last.slice(3).every((t) => t.length > 6_000)).toBe(true);
    expect(h.channel.transcript("dm-admin").at(-1)).toBe("read it");
  });

  it("each summary call is reserved and booked against the session's agent, under its own kind in /usage", async () => {
    const config: GatewayConfigInput = {
      ...HARNESS_CONFIG,
      agents: [{ id: "main", model: "fake-model", budgets: { dailyTokens: 1_000_000 } }],
    };
    const priced = (context: StreamContext) => {
      const turn = script(context);
      return isSummary(context) ? { text: turn as string, usage: { input: 0, output: 40, totalTokens: 40 } } : turn;
    };
    h = await startHarness({
      config,
      script: priced,
      gateway: { ...WINDOW, extensions: extensions([autonomyExtension()]) },
    });
    await h.send({ text: "read page 0", sender: ADMIN });
    await h.gateway.idle();
    const rows = await h.store.listSpend({ kind: "purpose" });
    expect(rows.map((row) => [row.subject, row.tokens])).toContainEqual(["main:tool_pair_summary", 40]);
    await h.send({ text: "/usage", sender: ADMIN });
    expect(h.channel.transcript("dm-admin").at(-1)).toContain("  - tool-pair summaries: today 40 tokens");
  });

  it("a failing summariser is logged and harmless: the chat goes on with its results whole", async () => {
    const warnings: string[] = [];
    const logger = {
      info: () => {},
      error: () => {},
      warn: (_fields: object, message?: string) => warnings.push(message ?? ""),
    };
    const failing = (context: StreamContext) =>
      isSummary(context)
        ? { fault: "error" as const, error: { kind: "server" as const, message: "cheap model down" } }
        : script(context);
    h = await startHarness({ script: failing, gateway: { ...WINDOW, logger, extensions: extensions() } });
    for (let i = 0; i < 5; i++) await h.send({ text: `read page ${i}`, sender: ADMIN });
    expect(h.channel.transcript("dm-admin")).toEqual(Array(5).fill("read it"));
    // One call per pair: a pair whose summary failed is not tried again at every turn.
    expect(warnings.filter((w) => w === "a tool-pair summary failed")).toHaveLength(5);
    expect(summaryCalls(h)).toHaveLength(5);
    expect(sentResults(turnCalls(h).at(-1)!.context).every((t) => t.length > 6_000)).toBe(true);
    expect((await h.store.getSession(KEY))?.settings[TOOL_PAIR_SUMMARIES_SETTING]).toBeUndefined();
  });

  it("is off unless the agent enables it", async () => {
    h = await startHarness({
      script,
      gateway: {
        ...WINDOW,
        extensions: [pageTool, contextExtension({ agents: { main: contextSettingsSchema.parse({}) } })],
      },
    });
    for (let i = 0; i < 2; i++) await h.send({ text: `read page ${i}`, sender: ADMIN });
    expect(summaryCalls(h)).toHaveLength(0);
  });
});
