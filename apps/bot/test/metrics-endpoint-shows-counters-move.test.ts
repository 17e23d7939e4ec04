import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type BotTelemetry, startBotTelemetry } from "../src/telemetry/bot-telemetry.js";
import { telemetrySettingsOf } from "../src/telemetry/telemetry-env.js";
import { type DemoWebchatBot, startDemoWebchatBot } from "./support/demo-webchat-bot.js";
import { WebchatClient } from "./support/webchat-client.js";

let telemetry: BotTelemetry;
let bot: DemoWebchatBot;
let browser: WebchatClient | undefined;
const spans = new InMemorySpanExporter();

beforeEach(async () => {
  telemetry = startBotTelemetry(telemetrySettingsOf({}), {
    spanProcessors: [new SimpleSpanProcessor({ exporter: spans })],
  });
  bot = await startDemoWebchatBot(
    "chorus-metrics-",
    {},
    telemetry.metricsHandler ? { metrics: telemetry.metricsHandler } : {},
  );
});

afterEach(async () => {
  await browser?.close();
  browser = undefined;
  await bot.stop();
  await telemetry.shutdown();
  spans.reset();
});

async function scrape(): Promise<string> {
  const response = await fetch(new URL("metrics", bot.runtime.webchatUrl ?? ""));
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toContain("text/plain");
  return response.text();
}

/** Scrapes until `done` holds (at most 10 s). */
async function scrapeUntil(done: (text: string) => boolean): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const text = await scrape();
    if (done(text) || Date.now() > deadline) return text;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The value of a Prometheus sample whose line starts with `prefix` (summed over label sets). */
function sample(text: string, name: string): number {
  let total = 0;
  for (const line of text.split("\n")) {
    if (line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})? ([0-9.eE+-]+)/.exec(line);
    if (match?.[1] === name) total += Number(match[3]);
  }
  return total;
}

describe("/metrics on the WebChat server", () => {
  it("shows the counters move while the bot works", async () => {
    const before = await scrape();
    expect(sample(before, "chorus_inbound_messages_total")).toBe(0);

    browser = await WebchatClient.connect(bot.runtime.webchatUrl ?? "");
    browser.send("dm", "research the workspace");
    const client = browser;
    await client.until(() => client.activities.some(({ activity }) => activity.kind === "subagent_spawned"));
    // The sub-agent is held: the run is live while the scrape happens.
    const during = await scrape();
    expect(sample(during, "chorus_inbound_messages_total")).toBe(1);
    expect(sample(during, "chorus_runs_active")).toBeGreaterThanOrEqual(1);
    expect(sample(during, "chorus_sessions_active")).toBeGreaterThanOrEqual(1);

    bot.gate.open();
    await client.until(() => client.botTexts("dm").some((text) => text.includes("My sub-agent reported back")));
    // The turn ends (and is counted) once its commit is done, just after its reply went out.
    const after = await scrapeUntil((text) => sample(text, "chorus_turn_duration_count") >= 1);
    expect(sample(after, "chorus_turn_duration_count")).toBeGreaterThanOrEqual(1);
    expect(sample(after, "gen_ai_client_operation_duration_count")).toBeGreaterThanOrEqual(3);
    expect(sample(after, "chorus_store_commit_duration_count")).toBeGreaterThanOrEqual(1);

    const names = spans.getFinishedSpans().map((span) => span.name);
    expect(names).toEqual(expect.arrayContaining(["inbound webchat", "invoke_agent assistant"]));
  });

  it("is not served without telemetry", async () => {
    await bot.stop();
    bot = await startDemoWebchatBot("chorus-metrics-");
    const response = await fetch(new URL("metrics", bot.runtime.webchatUrl ?? ""));
    expect(response.status).toBe(404);
  });
});
