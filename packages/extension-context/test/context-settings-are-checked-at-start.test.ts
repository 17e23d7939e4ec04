import { startHarness } from "@chorus/gateway-testing";
import { describe, expect, it } from "vitest";
import { contextExtension, contextSettingsSchema, UnknownContextModelError } from "../src/index.js";

describe("agents[].context.sessionMemory", () => {
  it("is off by default, with the seed's thresholds", () => {
    expect(contextSettingsSchema.parse({ sessionMemory: {} }).sessionMemory).toEqual({
      enabled: false,
      minTokens: 5_000,
      minToolCalls: 10,
      minSavingsTokens: 10_000,
    });
  });

  it("refuses a misspelt key and a non-positive threshold", () => {
    expect(contextSettingsSchema.safeParse({ sessionMemory: { enabeld: true } }).success).toBe(false);
    expect(contextSettingsSchema.safeParse({ sessionMemory: { minTokens: 0 } }).success).toBe(false);
  });

  it("a model the catalog does not know fails the gateway's start, naming the setting's path", async () => {
    const settings = contextSettingsSchema.parse({ sessionMemory: { enabled: true, model: "no-such-model" } });
    const started = startHarness({ gateway: { extensions: [contextExtension({ agents: { main: settings } })] } });
    await expect(started).rejects.toThrow(UnknownContextModelError);
    await expect(started).rejects.toThrow(/agents\.main\.context\.sessionMemory\.model: unknown model "no-such-model"/);
  });

  it("so does an unknown tool-pair summariser model", async () => {
    const settings = contextSettingsSchema.parse({ toolPairSummaries: { enabled: true, model: "no-such-model" } });
    const started = startHarness({ gateway: { extensions: [contextExtension({ agents: { main: settings } })] } });
    await expect(started).rejects.toThrow(
      /agents\.main\.context\.toolPairSummaries\.model: unknown model "no-such-model"/,
    );
  });
});
