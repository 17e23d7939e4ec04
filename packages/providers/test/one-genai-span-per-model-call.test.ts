import { type AgentEvent, type AgentMessage, agentLoop } from "@chorus/core";
import { captureTelemetry, type TelemetryCapture } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type ProviderSetup, providerCases } from "./provider-matrix.js";
import { clearLlmEnv } from "./stream-collect.js";
import { twoToolScripts, twoTools } from "./two-tool-conversation.js";

let capture: TelemetryCapture;
let setup: ProviderSetup | undefined;
beforeEach(() => {
  clearLlmEnv();
  capture = captureTelemetry();
});
afterEach(async () => {
  await setup?.fake.close();
  setup = undefined;
  clearLlmEnv();
  await capture.stop();
});

const prompt = (text: string): AgentMessage => ({ role: "user", content: text, timestamp: 1 });

async function run(s: ProviderSetup, captureContent: boolean): Promise<void> {
  const stream = agentLoop(
    [prompt("Weather and time in Paris?")],
    { systemPrompt: "You are terse.", messages: [] },
    { model: s.model, streamFn: s.streamFn, tools: twoTools, telemetry: { agentName: "main", captureContent } },
  );
  const events: AgentEvent[] = [];
  for await (const event of stream) events.push(event);
  expect(events.at(-1)).toMatchObject({ type: "agent_end", reason: "completed" });
}

describe.each(providerCases)("$name with an OpenTelemetry SDK registered", (provider) => {
  it("records one GenAI span with token usage per model call, in the run's trace", async () => {
    setup = await provider.start();
    setup.fake.enqueue(...twoToolScripts);
    await run(setup, false);
    const spans = capture.spans();
    const [agent] = spans.filter((span) => span.name === "invoke_agent main");
    const withUsage = spans.filter((span) => span.attributes["gen_ai.usage.input_tokens"] !== undefined);
    // The run's totals on invoke_agent, and one span per model call (2 calls): no second span counting the same tokens.
    expect(withUsage.map((span) => span.name).sort()).toEqual([
      `chat ${setup.model.id}`,
      `chat ${setup.model.id}`,
      "invoke_agent main",
    ]);
    const calls = spans.filter((span) => span.attributes["gen_ai.operation.name"] !== undefined);
    expect(calls.every((span) => span.spanContext().traceId === agent?.spanContext().traceId)).toBe(true);
    const perCall = withUsage.filter((span) => span !== agent);
    const summed = perCall.reduce((sum, span) => sum + Number(span.attributes["gen_ai.usage.input_tokens"]), 0);
    expect(summed).toBe(agent?.attributes["gen_ai.usage.input_tokens"]);
  });

  it("records no prompt or answer when Chorus's content capture is off, whatever the SDK's variables say", async () => {
    process.env.ANTHROPIC_OPEN_TELEMETRY = "true";
    process.env.ANTHROPIC_OPEN_TELEMETRY_TRACES_CONTENT_MODE = "content";
    setup = await provider.start();
    setup.fake.enqueue(...twoToolScripts);
    await run(setup, false);
    const attributes = JSON.stringify(capture.spans().map((span) => span.attributes));
    expect(attributes).not.toContain("Paris");
    expect(attributes).not.toContain("You are terse");
  });
});
