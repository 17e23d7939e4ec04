import { describe, expect, it } from "vitest";
import { measureGatewayLatency } from "../src/measure/gateway-latency.js";
import { loadGatewayPieces } from "../src/platforms/gateway-echo.js";
import { loadChannelFactories } from "../src/platforms/load-channels.js";
import { telegramEcho } from "../src/platforms/telegram-echo.js";
import { withModelLatency } from "../src/suites/latency.js";

describe("the latency suite", () => {
  it("gets every message answered through the Gateway and takes the model's time out of each latency", async () => {
    const factories = await loadChannelFactories();
    const pieces = await loadGatewayPieces();
    if ("unavailable" in factories) throw new Error(factories.unavailable);
    if ("unavailable" in pieces) throw new Error(pieces.unavailable);
    const platform = telegramEcho(factories, withModelLatency(pieces, 40));
    const result = await measureGatewayLatency(platform, "Gateway (SQLite)", {
      messages: 12,
      warmupMessages: 2,
      window: 4,
      modelMs: 40,
    });
    expect(result.samples).toBe(12);
    // A reply cannot reach the platform before the model has answered: what is left is the gateway's own share.
    expect(result.p50Ms).toBeGreaterThanOrEqual(0);
    expect(result.maxMs).toBeGreaterThanOrEqual(result.p99Ms);
  }, 60_000);
});
