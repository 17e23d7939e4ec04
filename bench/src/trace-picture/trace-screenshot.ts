import { writeFile } from "node:fs/promises";
import type { StreamContext } from "@chorus/core";
import { fakeModel, scriptedStreamFn } from "@chorus/core/testing";
import { Gateway, MemorySessionStore, TestChannel } from "@chorus/gateway";
import { captureTelemetry } from "@chorus/testkit";
import { chromium } from "playwright-core";
import { traceWaterfallHtml } from "./trace-waterfall-html.js";

/** The model: the agent spawns a helper, the helper answers, the agent answers with the helper's result. */
function script(context: StreamContext) {
  const last = context.messages.at(-1) as { role: string; content: unknown };
  const text = typeof last.content === "string" ? last.content : JSON.stringify(last.content);
  const usage = { input: 1200, output: 80, cacheRead: 900 };
  if (last.role === "toolResult")
    return { blocks: [{ type: "text" as const, text: "It is sunny.", delayMs: 350 }], usage };
  if (text === "find the weather")
    return { blocks: [{ type: "text" as const, text: "Sunny, 21 °C.", delayMs: 420 }], usage };
  return {
    blocks: [
      {
        type: "toolCall" as const,
        name: "spawn_agent",
        args: { agent: "helper", task: "find the weather", mode: "wait" },
        delayMs: 300,
      },
    ],
    usage,
  };
}

/**
 * Renders one traced turn (through the Gateway, a sub-agent included) as an HTML waterfall and screenshots it with
 * Debian's chromium (`apt-get install chromium`): `node dist/trace-picture/trace-screenshot.js out.png [chromium]`.
 */
async function main(): Promise<void> {
  const out = process.argv[2] ?? "telemetry-trace.png";
  const executablePath = process.argv[3] ?? "/usr/bin/chromium";
  const capture = captureTelemetry();
  const channel = new TestChannel({ id: "telegram", accountId: "main" });
  const model = fakeModel();
  const gateway = new Gateway({
    config: {
      agents: [{ id: "main", model: model.id }],
      channels: [{ channel: "telegram", dmPolicy: "open" }],
    },
    store: new MemorySessionStore(),
    channels: [channel],
    streamFn: scriptedStreamFn(script),
    models: { find: (id: string) => (id === model.id ? model : undefined), list: () => [model] },
    selfIds: { "telegram/main": "bot" },
    replyMode: "block",
    // The sender is the owner: a guest may not spawn sub-agents.
    isAdmin: () => true,
    agents: { main: { subagents: { helper: { description: "looks things up", tools: [] } } } },
  });
  await gateway.start();
  await channel.inject({ text: "what's the weather?" });
  await gateway.idle();
  await gateway.stop(0);
  const html = traceWaterfallHtml(capture.spans());
  await capture.stop();
  const browser = await chromium.launch({ executablePath, args: ["--no-sandbox", "--disable-gpu"] });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 560 } });
    await page.setContent(html);
    await page.screenshot({ path: out, fullPage: true });
  } finally {
    await browser.close();
  }
  await writeFile(out.replace(/\.png$/, ".html"), html);
  process.stdout.write(`${out}\n`);
}

await main();
