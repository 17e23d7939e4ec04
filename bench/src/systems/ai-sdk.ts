import { isStepCount, streamText, type ToolSet, tool } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { z } from "zod";
import type { Scenario, ScenarioTool, SeenToolResult } from "../workloads/scenario.js";
import { playTurn } from "../workloads/turn-schedule.js";
import type { CoreSystem } from "./core-system.js";

// The provider spec types, derived from the mock so the bench needs no @ai-sdk/provider dependency.
type DoStream = MockLanguageModelV4["doStream"];
type CallOptions = Parameters<DoStream>[0];
type StreamPart = Awaited<ReturnType<DoStream>>["stream"] extends ReadableStream<infer P> ? P : never;

const ZERO_USAGE = {
  inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 0, text: 0, reasoning: 0 },
};

function toolOutputText(output: unknown): string {
  if (typeof output !== "object" || output === null) return "";
  const { type, value } = output as { type?: string; value?: unknown };
  if (type === "text") return String(value);
  if (type === "json") return typeof value === "string" ? value : JSON.stringify(value);
  return "";
}

/** The tool results after the last user message of an AI SDK prompt, in order. */
function seenToolResults(prompt: CallOptions["prompt"]): SeenToolResult[] {
  let start = 0;
  for (let i = prompt.length - 1; i >= 0; i--) {
    if (prompt[i]?.role === "user") {
      start = i + 1;
      break;
    }
  }
  const seen: SeenToolResult[] = [];
  for (const message of prompt.slice(start)) {
    if (message.role !== "tool") continue;
    for (const part of message.content) {
      if (part.type === "tool-result") seen.push({ toolName: part.toolName, text: toolOutputText(part.output) });
    }
  }
  return seen;
}

/** A mock language model whose stream plays the scenario's scripted model. */
function scriptedModel(scenario: Scenario): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doStream: async (options) => {
      const turn = scenario.respond(seenToolResults(options.prompt));
      const stream = new ReadableStream<StreamPart>({
        start(controller) {
          controller.enqueue({ type: "stream-start", warnings: [] });
          let calledTools = false;
          let index = 0;
          playTurn(
            turn,
            (step) => {
              const id = `part_${index++}`;
              if (step.kind === "text") {
                controller.enqueue({ type: "text-start", id });
                controller.enqueue({ type: "text-delta", id, delta: step.text });
                controller.enqueue({ type: "text-end", id });
                return;
              }
              calledTools = true;
              const input = JSON.stringify(step.args);
              controller.enqueue({ type: "tool-input-start", id: step.id, toolName: step.name });
              controller.enqueue({ type: "tool-input-delta", id: step.id, delta: input });
              controller.enqueue({ type: "tool-input-end", id: step.id });
              controller.enqueue({ type: "tool-call", toolCallId: step.id, toolName: step.name, input });
            },
            () => {
              const unified = calledTools ? "tool-calls" : "stop";
              controller.enqueue({ type: "finish", usage: ZERO_USAGE, finishReason: { unified, raw: undefined } });
              controller.close();
            },
          );
        },
      });
      return { stream };
    },
  });
}

function toolSchema(spec: ScenarioTool) {
  const shape: Record<string, z.ZodString | z.ZodNumber> = {};
  for (const field of spec.fields) shape[field.name] = field.type === "string" ? z.string() : z.number();
  return z.object(shape);
}

function toToolSet(tools: ScenarioTool[]): ToolSet {
  const set: ToolSet = {};
  for (const spec of tools) {
    set[spec.name] = tool({
      description: spec.description,
      inputSchema: toolSchema(spec),
      execute: (args, { abortSignal }) => spec.execute(args, abortSignal),
    });
  }
  return set;
}

/** The Vercel AI SDK: `streamText` with its mock model, multi-step through `stopWhen`. */
export const aiSdk: CoreSystem = {
  name: "ai (Vercel AI SDK)",
  prepare(scenario) {
    const model = scriptedModel(scenario);
    const tools = toToolSet(scenario.tools);
    return async () => {
      // The mock records every call; clear it so 2 000 runs do not grow the heap.
      model.doStreamCalls.length = 0;
      const result = streamText({ model, tools, prompt: scenario.prompt, stopWhen: isStepCount(5) });
      for await (const _part of result.fullStream) {
        // Consume every part, as an app would.
      }
      return await result.text;
    };
  },
};
