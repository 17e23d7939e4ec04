import { builtinModels } from "@chorus/providers";
import { type FakeLlmServer, startFakeAnthropic } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { buildBotStreamFn } from "../src/models/bot-stream-fn.js";

let fake: FakeLlmServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function systemCacheControl(cacheTtl: "5m" | "1h" | "auto" | undefined): Promise<unknown> {
  fake = await startFakeAnthropic();
  fake.enqueue([{ type: "text", text: "ok" }]);
  const anthropic = { apiKey: "sk-ant-test", baseUrl: fake.url, ...(cacheTtl === undefined ? {} : { cacheTtl }) };
  const streamFn = buildBotStreamFn({ providers: { anthropic } });
  const model = builtinModels.find((m) => m.id === "claude-sonnet-4-6");
  if (model === undefined) throw new Error("claude-sonnet-4-6 is not a built-in model");
  const stream = streamFn(model, {
    systemPrompt: "Be brief.",
    messages: [{ role: "user", content: "hi", timestamp: 1 }],
  });
  await stream.result();
  const system = fake.requests[0]?.body.system as { cache_control?: unknown }[];
  return system[0]?.cache_control;
}

describe("providers.anthropic.cacheTtl in chorus.config.yaml", () => {
  it("keeps the 5-minute cache by default", async () => {
    expect(await systemCacheControl(undefined)).toEqual({ type: "ephemeral" });
  });

  it("asks for the 1-hour cache when set to 1h", async () => {
    expect(await systemCacheControl("1h")).toEqual({ type: "ephemeral", ttl: "1h" });
  });
});
