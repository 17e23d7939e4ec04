import { lazyInstruments } from "@chorus/core";
import type { Counter, Histogram, ObservableGauge } from "@opentelemetry/api";

const SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600];

/** Chorus' own gateway metrics (names in docs/telemetry.md). */
export interface GatewayInstruments {
  /** `chorus.inbound.messages`: every inbound message, by `chorus.channel` and `chorus.inbound.verdict`. */
  inbound: Counter;
  /** `chorus.queue.wait`: seconds a message waited in its session's lane before its turn started. */
  queueWait: Histogram;
  /** `chorus.turn.duration`: seconds from a turn's start to its end, by agent and outcome. */
  turnDuration: Histogram;
  /** `chorus.turn.first_chunk`: seconds from a message's delivery to the first chunk of its reply at the platform. */
  firstChunk: Histogram;
  /** `chorus.outbox.age`: seconds from an outbox entry's creation to its successful send, by channel. */
  outboxAge: Histogram;
  /** `chorus.delivery.retries`: failed sends that will be retried, by `chorus.retry.cause`. */
  retries: Counter;
  /** `chorus.store.commit.duration`: seconds one turn commit took in the store. */
  storeCommit: Histogram;
  /** `chorus.sessions.active`, `chorus.runs.active`, `chorus.outbox.backlog`: observed at each collection. */
  gauges: ObservableGauge[];
}

/** What the observable gauges read: one entry per running Gateway. */
export interface GatewayGaugeSource {
  sessions(): number;
  runs(): number;
  outboxBacklog(): number;
}

const sources = new Set<GatewayGaugeSource>();

/** The gateway's instruments; undefined while no MeterProvider is registered. */
export const gatewayInstruments = lazyInstruments<GatewayInstruments>("@chorus/gateway", (meter) => {
  const sessions = meter.createObservableGauge("chorus.sessions.active", { description: "Sessions with live state" });
  const runs = meter.createObservableGauge("chorus.runs.active", { description: "Agent runs under way" });
  const backlog = meter.createObservableGauge("chorus.outbox.backlog", {
    description: "Outbox entries taken for sending and not yet sent",
  });
  meter.addBatchObservableCallback(
    (result) => {
      let s = 0;
      let r = 0;
      let b = 0;
      for (const source of sources) {
        s += source.sessions();
        r += source.runs();
        b += source.outboxBacklog();
      }
      result.observe(sessions, s);
      result.observe(runs, r);
      result.observe(backlog, b);
    },
    [sessions, runs, backlog],
  );
  const seconds = { unit: "s", advice: { explicitBucketBoundaries: SECONDS } };
  return {
    inbound: meter.createCounter("chorus.inbound.messages", { description: "Inbound messages by channel and verdict" }),
    queueWait: meter.createHistogram("chorus.queue.wait", { ...seconds, description: "Time in the session's lane" }),
    turnDuration: meter.createHistogram("chorus.turn.duration", { ...seconds, description: "Turn duration" }),
    firstChunk: meter.createHistogram("chorus.turn.first_chunk", {
      ...seconds,
      description: "Time from a message's delivery to the first reply chunk at the platform",
    }),
    outboxAge: meter.createHistogram("chorus.outbox.age", { ...seconds, description: "Outbox entry age when sent" }),
    retries: meter.createCounter("chorus.delivery.retries", { description: "Failed sends retried, by cause" }),
    storeCommit: meter.createHistogram("chorus.store.commit.duration", {
      ...seconds,
      description: "Turn commit latency",
    }),
    gauges: [sessions, runs, backlog],
  };
});

/**
 * Counts a Gateway's sessions, runs and outbox backlog in the observable gauges.
 * Contract: returns the function that stops counting it (call it when the Gateway stops).
 */
export function observeGateway(source: GatewayGaugeSource): () => void {
  sources.add(source);
  return () => {
    sources.delete(source);
  };
}
