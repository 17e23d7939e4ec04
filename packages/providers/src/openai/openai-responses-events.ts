import type { Model } from "@chorus/core";
import type OpenAI from "openai";
import { usageWithCost } from "../models/calculate-cost.js";
import type { ProviderOutcome, ProviderRun } from "../stream/run-provider-stream.js";
import { reasoningSignature } from "./openai-responses-request.js";

type OutputBlock = { kind: "text" | "thinking" | "tool"; contentIndex: number; args: boolean };

/**
 * Feeds Responses API stream events into the writer: messages, reasoning summaries (with the
 * item kept for replay) and function calls.
 * Contract: a stream without `response.completed`/`incomplete` is a network failure; `failed`
 * is a server error; an incomplete answer is `length`, or an error when it was filtered.
 */
export async function consumeResponsesEvents(
  events: AsyncIterable<OpenAI.Responses.ResponseStreamEvent>,
  model: Model,
  run: ProviderRun,
): Promise<ProviderOutcome> {
  const { writer } = run;
  const items = new Map<number, OutputBlock>();
  let outcome: ProviderOutcome | undefined;
  let refusal = "";
  const textBlock = (outputIndex: number): number => {
    let block = items.get(outputIndex);
    if (!block) {
      block = { kind: "text", contentIndex: writer.textStart(), args: false };
      items.set(outputIndex, block);
    }
    return block.contentIndex;
  };
  for await (const event of events) {
    run.alive();
    switch (event.type) {
      case "response.created":
        writer.message.responseId = event.response.id;
        break;
      case "response.output_item.added": {
        const item = event.item;
        if (item.type === "reasoning") {
          items.set(event.output_index, { kind: "thinking", contentIndex: writer.thinkingStart(), args: false });
        } else if (item.type === "function_call") {
          const contentIndex = writer.toolCallStart(item.call_id, item.name);
          items.set(event.output_index, { kind: "tool", contentIndex, args: false });
        }
        break;
      }
      case "response.output_text.delta":
        writer.textDelta(textBlock(event.output_index), event.delta);
        break;
      case "response.refusal.delta":
        refusal += event.delta;
        break;
      case "response.reasoning_summary_part.added": {
        const block = items.get(event.output_index);
        if (block && event.summary_index > 0) writer.thinkingDelta(block.contentIndex, "\n\n");
        break;
      }
      case "response.reasoning_summary_text.delta": {
        const block = items.get(event.output_index);
        if (block) writer.thinkingDelta(block.contentIndex, event.delta);
        break;
      }
      case "response.function_call_arguments.delta": {
        const block = items.get(event.output_index);
        if (block) {
          block.args = true;
          writer.toolCallDelta(block.contentIndex, event.delta);
        }
        break;
      }
      case "response.output_item.done": {
        const item = event.item;
        const block = items.get(event.output_index);
        if (item.type === "message" && block) writer.textEnd(block.contentIndex);
        else if (item.type === "reasoning" && block) {
          writer.thinkingSignature(block.contentIndex, reasoningSignature(item));
          writer.thinkingEnd(block.contentIndex);
        } else if (item.type === "function_call" && block) {
          if (!block.args) writer.toolCallDelta(block.contentIndex, item.arguments);
          writer.toolCallEnd(block.contentIndex);
        }
        break;
      }
      case "response.completed":
      case "response.incomplete": {
        const response = event.response;
        const usage = response.usage;
        if (usage) {
          const cached = usage.input_tokens_details?.cached_tokens ?? 0;
          writer.message.usage = usageWithCost(model, {
            input: usage.input_tokens - cached,
            output: usage.output_tokens,
            cacheRead: cached,
          });
        }
        if (event.type === "response.incomplete") {
          const reason = response.incomplete_details?.reason;
          outcome =
            reason === "content_filter"
              ? { ok: false, kind: "invalid_request", message: "The answer was blocked by the content filter" }
              : { ok: true, reason: "length" };
        } else {
          const called = writer.message.content.some((c) => c.type === "toolCall");
          outcome = refusal
            ? { ok: false, kind: "invalid_request", message: `The model refused: ${refusal}` }
            : { ok: true, reason: called ? "toolUse" : "stop" };
        }
        break;
      }
      case "response.failed":
        outcome = {
          ok: false,
          kind: "server",
          message: event.response.error?.message ?? "The response failed",
        };
        break;
      default:
        break;
    }
  }
  return outcome ?? { ok: false, kind: "network", message: "The stream ended before response.completed" };
}
