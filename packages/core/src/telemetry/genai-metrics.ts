import type { Counter, Histogram } from "@opentelemetry/api";
import { lazyInstruments } from "./lazy-instruments.js";

/** The GenAI client metrics and Chorus' cost counter. */
export interface GenAiInstruments {
  /** `gen_ai.client.operation.duration`, seconds, per model call. */
  operationDuration: Histogram;
  /** `gen_ai.client.token.usage`, tokens per model call by `gen_ai.token.type` (input/output). */
  tokenUsage: Histogram;
  /** `chorus.agent.cost`, US dollars by agent. */
  agentCost: Counter;
}

/** The core's instruments; undefined while no MeterProvider is registered. */
export const genAiInstruments = lazyInstruments<GenAiInstruments>("@chorus/core", (meter) => ({
  operationDuration: meter.createHistogram("gen_ai.client.operation.duration", {
    unit: "s",
    description: "GenAI operation duration",
    advice: {
      explicitBucketBoundaries: [
        0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92,
      ],
    },
  }),
  tokenUsage: meter.createHistogram("gen_ai.client.token.usage", {
    unit: "{token}",
    description: "Number of input and output tokens used",
    advice: {
      explicitBucketBoundaries: [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216],
    },
  }),
  agentCost: meter.createCounter("chorus.agent.cost", { unit: "USD", description: "Model cost by agent" }),
}));
