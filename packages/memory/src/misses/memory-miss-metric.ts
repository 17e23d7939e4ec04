import { lazyInstruments } from "@chorus/core";
import type { MemoryMissReason, RecallStrategy } from "./memory-miss.js";

// Module-private: its type comes from @opentelemetry/api, which this package reaches only through @chorus/core.
const memoryInstruments = lazyInstruments("@chorus/memory", (meter) => ({
  misses: meter.createCounter("chorus.memory.misses", {
    description: "Recalls that found nothing above their threshold or failed, by outcome and strategy",
  }),
}));

/**
 * Counts one miss in `chorus.memory.misses` (attributes `chorus.memory.outcome`: `no_results`, `timeout`, `error`;
 * `chorus.memory.strategy`). Contract: a no-op while no MeterProvider is registered.
 */
export function countMemoryMiss(reason: MemoryMissReason, strategy: RecallStrategy): void {
  memoryInstruments()?.misses.add(1, { "chorus.memory.outcome": reason, "chorus.memory.strategy": strategy });
}
