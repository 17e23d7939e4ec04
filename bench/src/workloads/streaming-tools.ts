import type { Scenario } from "./scenario.js";

/** When the model emits each call and how long each tool runs, in milliseconds. */
export interface StreamingToolsTiming {
  callAAtMs: number;
  toolAMs: number;
  callBAtMs: number;
  toolBMs: number;
}

/** The W2 timing: A (1 000 ms) arrives at 100 ms, B (100 ms) at 1 000 ms. */
export const STREAMING_TOOLS_TIMING: StreamingToolsTiming = {
  callAAtMs: 100,
  toolAMs: 1000,
  callBAtMs: 1000,
  toolBMs: 100,
};

/** Wall time when each tool starts as its call arrives. */
export function idealWallMs(timing: StreamingToolsTiming): number {
  return Math.max(timing.callAAtMs + timing.toolAMs, timing.callBAtMs + timing.toolBMs);
}

/** Wall time when tools start only after the model's stream ended (running in parallel). */
export function postStreamWallMs(timing: StreamingToolsTiming): number {
  return Math.max(timing.callAAtMs, timing.callBAtMs) + Math.max(timing.toolAMs, timing.toolBMs);
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** The final answer every system must produce: both results, in the model's call order. */
export function streamingToolsAnswer(timing: StreamingToolsTiming): string {
  return `Done: A slept ${timing.toolAMs} ms, B slept ${timing.toolBMs} ms.`;
}

/**
 * W2: one response streams two calls far apart; the second turn answers at once.
 * A loop that starts a tool when its call arrives finishes in {@link idealWallMs}.
 */
export function streamingTools(timing: StreamingToolsTiming): Scenario {
  return {
    name: "streaming-tools",
    prompt: "Run the two sleeps.",
    tools: [
      {
        name: "sleep",
        description: "Waits for the given number of milliseconds.",
        fields: [
          { name: "label", type: "string" },
          { name: "ms", type: "number" },
        ],
        execute: async (args, signal) => {
          await sleep(Number(args.ms), signal);
          return `${String(args.label)} slept ${Number(args.ms)} ms`;
        },
      },
    ],
    respond(toolResults) {
      if (toolResults.length === 0) {
        return {
          steps: [
            {
              kind: "toolCall",
              atMs: timing.callAAtMs,
              id: "call_a",
              name: "sleep",
              args: { label: "A", ms: timing.toolAMs },
            },
            {
              kind: "toolCall",
              atMs: timing.callBAtMs,
              id: "call_b",
              name: "sleep",
              args: { label: "B", ms: timing.toolBMs },
            },
          ],
        };
      }
      return { steps: [{ kind: "text", atMs: 0, text: `Done: ${toolResults.map((r) => r.text).join(", ")}.` }] };
    },
  };
}
