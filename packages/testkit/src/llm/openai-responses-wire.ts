import {
  type FakeLlmScript,
  type FakeUsageStep,
  scriptStopReason,
  scriptUsage,
  splitIntoDeltas,
  toolArgsText,
} from "./script.js";
import { namedEvent, type WireAction, type WireContext } from "./wire-action.js";

/** Encodes a script as the Responses API's streaming events, each with its `sequence_number`. */
export function encodeOpenAIResponsesStream(script: FakeLlmScript, ctx: WireContext): WireAction[] {
  let sequence = 0;
  const out: WireAction[] = [];
  const emit = (type: string, data: Record<string, unknown>) => {
    out.push(namedEvent(type, { type, sequence_number: sequence++, ...data }));
  };
  const response = (status: string, output: unknown[], extra: Record<string, unknown> = {}) => ({
    id: `resp_fake_${ctx.seq}`,
    object: "response",
    created_at: 1_700_000_000 + ctx.seq,
    status,
    model: ctx.model,
    output,
    usage: null,
    error: null,
    incomplete_details: null,
    instructions: null,
    parallel_tool_calls: true,
    tool_choice: "auto",
    tools: [],
    metadata: {},
    store: ctx.body.store ?? true,
    ...extra,
  });
  emit("response.created", { response: response("in_progress", []) });
  emit("response.in_progress", { response: response("in_progress", []) });
  const output: unknown[] = [];
  let toolIndex = 0;
  for (const step of script) {
    const output_index = output.length;
    switch (step.type) {
      case "text": {
        const item_id = `msg_fake_${ctx.seq}_${output_index}`;
        const base = { id: item_id, type: "message", role: "assistant" };
        emit("response.output_item.added", { output_index, item: { ...base, status: "in_progress", content: [] } });
        const part = { type: "output_text", annotations: [], logprobs: [] };
        emit("response.content_part.added", { item_id, output_index, content_index: 0, part: { ...part, text: "" } });
        for (const delta of splitIntoDeltas(step.text, step.chunks)) {
          emit("response.output_text.delta", { item_id, output_index, content_index: 0, delta, logprobs: [] });
        }
        emit("response.output_text.done", { item_id, output_index, content_index: 0, text: step.text, logprobs: [] });
        emit("response.content_part.done", {
          item_id,
          output_index,
          content_index: 0,
          part: { ...part, text: step.text },
        });
        const item = { ...base, status: "completed", content: [{ ...part, text: step.text }] };
        emit("response.output_item.done", { output_index, item });
        output.push(item);
        break;
      }
      case "thinking":
      case "redacted_thinking": {
        const item_id = `rs_fake_${ctx.seq}_${output_index}`;
        const encrypted = step.type === "thinking" ? step.signature : step.data;
        emit("response.output_item.added", {
          output_index,
          item: { id: item_id, type: "reasoning", summary: [], encrypted_content: null },
        });
        const summary: unknown[] = [];
        if (step.type === "thinking") {
          const part = { type: "summary_text", text: "" };
          emit("response.reasoning_summary_part.added", { item_id, output_index, summary_index: 0, part });
          for (const delta of splitIntoDeltas(step.thinking)) {
            emit("response.reasoning_summary_text.delta", { item_id, output_index, summary_index: 0, delta });
          }
          emit("response.reasoning_summary_text.done", {
            item_id,
            output_index,
            summary_index: 0,
            text: step.thinking,
          });
          const done = { type: "summary_text", text: step.thinking };
          emit("response.reasoning_summary_part.done", { item_id, output_index, summary_index: 0, part: done });
          summary.push(done);
        }
        const item = { id: item_id, type: "reasoning", summary, encrypted_content: encrypted };
        emit("response.output_item.done", { output_index, item });
        output.push(item);
        break;
      }
      case "tool_call": {
        const item_id = `fc_fake_${ctx.seq}_${output_index}`;
        const call_id = step.id ?? `call_fake_${ctx.seq}_${toolIndex++}`;
        const args = toolArgsText(step);
        const base = { id: item_id, type: "function_call", call_id, name: step.name };
        emit("response.output_item.added", { output_index, item: { ...base, status: "in_progress", arguments: "" } });
        for (const delta of splitIntoDeltas(args, step.chunks ?? 3)) {
          emit("response.function_call_arguments.delta", { item_id, output_index, delta });
        }
        emit("response.function_call_arguments.done", { item_id, output_index, name: step.name, arguments: args });
        const item = { ...base, status: "completed", arguments: args };
        emit("response.output_item.done", { output_index, item });
        output.push(item);
        break;
      }
      case "cut":
        out.push({ kind: "cut" });
        return out;
      case "stall":
        out.push({ kind: "stall", ms: step.ms });
        break;
      case "error_event":
        emit("error", {
          code: step.kind === "server_error" ? "server_error" : "overloaded",
          message:
            step.kind === "server_error"
              ? "The server had an error while processing your request. Sorry about that!"
              : "The engine is currently overloaded, please try again later",
          param: null,
        });
        out.push({ kind: "end" });
        return out;
      default:
        break;
    }
  }
  const usage = responsesUsage(scriptUsage(script));
  const reason = scriptStopReason(script);
  if (reason === "length" || reason === "refusal") {
    const incomplete_details = { reason: reason === "length" ? "max_output_tokens" : "content_filter" };
    emit("response.incomplete", { response: response("incomplete", output, { usage, incomplete_details }) });
  } else {
    emit("response.completed", { response: response("completed", output, { usage }) });
  }
  out.push({ kind: "end" });
  return out;
}

function responsesUsage(usage: FakeUsageStep) {
  const input = usage.input + (usage.cacheRead ?? 0) + (usage.cacheWrite ?? 0);
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: usage.cacheRead ?? 0 },
    output_tokens: usage.output,
    output_tokens_details: { reasoning_tokens: usage.reasoning ?? 0 },
    total_tokens: input + usage.output,
  };
}
