import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseBotConfig } from "../../src/config/load-bot-config.js";
import { BotRuntime } from "../../src/runtime/bot-runtime.js";
import type { MetricsHandler } from "../../src/telemetry/bot-telemetry.js";
import { silentLogger } from "./silent-logger.js";
import { SubagentGate } from "./subagent-gate.js";

/** A started bot: WebChat on port 0, the demo model, an in-memory store, sub-agent calls held by `gate`. */
export interface DemoWebchatBot {
  readonly runtime: BotRuntime;
  readonly gate: SubagentGate;
  /** Releases the gate, shuts the bot down and removes its data folder. */
  stop(): Promise<void>;
}

/**
 * Starts the demo WebChat bot the WebChat tests share, with `webchat` settings over the defaults (e.g. a host and an
 * access token); `stop()` always cleans up.
 */
export async function startDemoWebchatBot(
  prefix: string,
  webchat: { host?: string; accessToken?: string } = {},
  extra: { metrics?: MetricsHandler } = {},
): Promise<DemoWebchatBot> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  const parsed = parseBotConfig({
    dataDir: dir,
    agents: [{ id: "assistant", model: "demo" }],
    channels: { webchat: [{ accountId: "local", port: 0, ...webchat }] },
    store: { kind: "memory" },
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  const gate = new SubagentGate();
  const runtime = new BotRuntime({
    config: parsed.config,
    source: "test",
    logger: silentLogger(),
    cwd: dir,
    demoTokenDelayMs: 5,
    wrapStreamFn: gate.wrap,
    ...(extra.metrics === undefined ? {} : { metrics: extra.metrics }),
  });
  const stop = async (): Promise<void> => {
    gate.open();
    await runtime.shutdown();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await runtime.start();
  } catch (error) {
    await stop();
    throw error;
  }
  return { runtime, gate, stop };
}
