import { createNoopMeter, type Meter, metrics } from "@opentelemetry/api";

const NOOP_METER = createNoopMeter();

/**
 * Instruments made from the global MeterProvider on first use and again whenever another provider is registered (the
 * metrics API has no proxy: a meter taken before the SDK registered would stay a no-op forever).
 * Contract: the getter returns undefined while no MeterProvider is registered, so callers skip building attributes.
 * Example: `const instruments = lazyInstruments("@chorus/gateway", (m) => ({ turns: m.createCounter("chorus.turns") }));`
 */
export function lazyInstruments<T>(meterName: string, build: (meter: Meter) => T): () => T | undefined {
  let provider: unknown;
  let made: T | undefined;
  return () => {
    const current = metrics.getMeterProvider();
    if (current !== provider) {
      provider = current;
      const meter = current.getMeter(meterName);
      made = meter === NOOP_METER ? undefined : build(meter);
    }
    return made;
  };
}
