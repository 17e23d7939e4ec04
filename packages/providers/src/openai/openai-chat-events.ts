import type { Model } from "@chorus/core";
import type OpenAI from "openai";
import { usageWithCost } from "../models/calculate-cost.js";
import type { ProviderOutcome, ProviderRun } from "../stream/run-provider-stream.js";
import type { ChatCompat } from "./chat-compat.js";

/**
 * Feeds Chat Completions chunks into the writer: text, reasoning (per the compat field) and
 * tool calls assembled by index.
 * Contract: a stream without a finish_reason is a network failure; content_filter is an error.
 */
export async function consumeChatChunks(
  chunks: AsyncIterable<OpenAI.Chat.ChatCompletionChunk>,
  model: Model,
  compat: ChatCompat,
  run: ProviderRun,
): Promise<ProviderOutcome> {
  const { writer } = run;
  let open: { kind: "text" | "thinking"; contentIndex: number } | undefined;
  const tools = new Map<number, number>();
  let finish: string | null = null;
  let refusal = "";
  const closeOpen = () => {
    if (open?.kind === "text") writer.textEnd(open.contentIndex);
    else if (open?.kind === "thinking") writer.thinkingEnd(open.contentIndex);
    open = undefined;
  };
  for await (const chunk of chunks) {
    run.alive();
    if (chunk.id && !writer.message.responseId) writer.message.responseId = chunk.id;
    if (chunk.usage) {
      const cached = chunk.usage.prompt_tokens_details?.cached_tokens ?? 0;
      writer.message.usage = usageWithCost(model, {
        input: chunk.usage.prompt_tokens - cached,
        output: chunk.usage.completion_tokens,
        cacheRead: cached,
      });
    }
    const choice = chunk.choices[0];
    if (!choice) continue;
    const delta = choice.delta as OpenAI.Chat.ChatCompletionChunk.Choice.Delta & Record<string, unknown>;
    const reasoning = compat.reasoningField ? delta[compat.reasoningField] : undefined;
    if (typeof reasoning === "string" && reasoning.length > 0) {
      if (open?.kind !== "thinking") {
        closeOpen();
        open = { kind: "thinking", contentIndex: writer.thinkingStart() };
      }
      writer.thinkingDelta(open.contentIndex, reasoning);
    }
    if (typeof delta.refusal === "string") refusal += delta.refusal;
    if (typeof delta.content === "string" && delta.content.length > 0) {
      if (open?.kind !== "text") {
        closeOpen();
        open = { kind: "text", contentIndex: writer.textStart() };
      }
      writer.textDelta(open.contentIndex, delta.content);
    }
    for (const call of delta.tool_calls ?? []) {
      let contentIndex = tools.get(call.index);
      if (contentIndex === undefined) {
        closeOpen();
        contentIndex = writer.toolCallStart(call.id ?? "", call.function?.name ?? "");
        tools.set(call.index, contentIndex);
      } else {
        writer.toolCallIdentity(contentIndex, call.id, call.function?.name);
      }
      writer.toolCallDelta(contentIndex, call.function?.arguments ?? "");
    }
    if (choice.finish_reason) finish = choice.finish_reason;
  }
  closeOpen();
  for (const contentIndex of tools.values()) writer.toolCallEnd(contentIndex);
  if (finish === null) return { ok: false, kind: "network", message: "The stream ended without a finish_reason" };
  if (refusal) return { ok: false, kind: "invalid_request", message: `The model refused: ${refusal}` };
  if (finish === "content_filter") {
    return { ok: false, kind: "invalid_request", message: "The answer was blocked by the content filter" };
  }
  if (finish === "length") return { ok: true, reason: "length" };
  // Some compatible servers say "stop" after tool calls.
  if (finish === "tool_calls" || finish === "function_call" || tools.size > 0) return { ok: true, reason: "toolUse" };
  return { ok: true, reason: "stop" };
}
