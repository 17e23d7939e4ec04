import type Anthropic from "@anthropic-ai/sdk";
import type { Model } from "@chorus/core";
import { usageWithCost } from "../models/calculate-cost.js";
import type { ProviderOutcome, ProviderRun } from "../stream/run-provider-stream.js";

type BlockKind = "text" | "thinking" | "redacted" | "tool";

/**
 * Feeds the Messages API's raw stream events into the writer.
 * Contract: resolves to the outcome once the stream ends; a stream that ends before
 * `message_stop` is a network failure; a refusal is an error.
 */
export async function consumeAnthropicEvents(
  events: AsyncIterable<Anthropic.RawMessageStreamEvent>,
  model: Model,
  run: ProviderRun,
): Promise<ProviderOutcome> {
  const { writer } = run;
  const blocks = new Map<number, { kind: BlockKind; contentIndex: number }>();
  const tokens = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  let stopReason: string | null = null;
  let stopped = false;
  const setUsage = () => {
    writer.message.usage = usageWithCost(model, tokens);
  };
  for await (const event of events) {
    run.alive();
    switch (event.type) {
      case "message_start": {
        writer.message.responseId = event.message.id;
        const usage = event.message.usage;
        tokens.input = usage.input_tokens ?? 0;
        tokens.cacheRead = usage.cache_read_input_tokens ?? 0;
        tokens.cacheWrite = usage.cache_creation_input_tokens ?? 0;
        tokens.output = usage.output_tokens ?? 0;
        setUsage();
        break;
      }
      case "content_block_start": {
        const block = event.content_block;
        if (block.type === "text") {
          blocks.set(event.index, { kind: "text", contentIndex: writer.textStart() });
          if (block.text) writer.textDelta(blocks.get(event.index)!.contentIndex, block.text);
        } else if (block.type === "thinking") {
          blocks.set(event.index, { kind: "thinking", contentIndex: writer.thinkingStart() });
        } else if (block.type === "redacted_thinking") {
          const contentIndex = writer.thinkingStart({ redacted: true, signature: block.data });
          blocks.set(event.index, { kind: "redacted", contentIndex });
        } else if (block.type === "tool_use") {
          blocks.set(event.index, { kind: "tool", contentIndex: writer.toolCallStart(block.id, block.name) });
        }
        break;
      }
      case "content_block_delta": {
        const block = blocks.get(event.index);
        if (!block) break;
        const delta = event.delta;
        if (delta.type === "text_delta") writer.textDelta(block.contentIndex, delta.text);
        else if (delta.type === "thinking_delta") writer.thinkingDelta(block.contentIndex, delta.thinking);
        else if (delta.type === "signature_delta") writer.thinkingSignature(block.contentIndex, delta.signature);
        else if (delta.type === "input_json_delta") writer.toolCallDelta(block.contentIndex, delta.partial_json);
        break;
      }
      case "content_block_stop": {
        const block = blocks.get(event.index);
        if (!block) break;
        if (block.kind === "text") writer.textEnd(block.contentIndex);
        else if (block.kind === "tool") writer.toolCallEnd(block.contentIndex);
        else writer.thinkingEnd(block.contentIndex);
        break;
      }
      case "message_delta": {
        stopReason = event.delta.stop_reason ?? stopReason;
        const usage = event.usage;
        tokens.output = usage.output_tokens ?? tokens.output;
        if (usage.input_tokens != null) tokens.input = usage.input_tokens;
        if (usage.cache_read_input_tokens != null) tokens.cacheRead = usage.cache_read_input_tokens;
        if (usage.cache_creation_input_tokens != null) tokens.cacheWrite = usage.cache_creation_input_tokens;
        setUsage();
        break;
      }
      case "message_stop":
        stopped = true;
        break;
    }
  }
  if (!stopped) return { ok: false, kind: "network", message: "The stream ended before message_stop" };
  return anthropicOutcome(stopReason);
}

/** Maps the Messages API's stop reason to the core's. */
export function anthropicOutcome(stopReason: string | null): ProviderOutcome {
  switch (stopReason) {
    case "tool_use":
      return { ok: true, reason: "toolUse" };
    case "max_tokens":
    case "model_context_window_exceeded":
      return { ok: true, reason: "length" };
    case "refusal":
      return { ok: false, kind: "invalid_request", message: "The model refused to answer (stop_reason: refusal)" };
    default:
      // end_turn, stop_sequence and pause_turn (the server paused a long turn; continuing is the caller's choice).
      return { ok: true, reason: "stop" };
  }
}
