import {
  type FakeLlmScript,
  type FakeStopReason,
  scriptStopReason,
  scriptUsage,
  splitIntoDeltas,
  toolArgsText,
} from "./script.js";
import { dataEvent, type WireAction, type WireContext } from "./wire-action.js";

/** Where a Chat Completions server streams reasoning; real OpenAI streams none. */
export type ChatReasoningField = "reasoning_content" | "reasoning" | "none";

const finishReasons: Record<FakeStopReason, string> = {
  stop: "stop",
  length: "length",
  toolUse: "tool_calls",
  refusal: "content_filter",
  pause: "stop",
};

/** Encodes a script as Chat Completions `chat.completion.chunk` events ending in `[DONE]`. */
export function encodeOpenAIChatStream(
  script: FakeLlmScript,
  ctx: WireContext,
  reasoningField: ChatReasoningField,
): WireAction[] {
  const created = 1_700_000_000 + ctx.seq;
  const chunk = (delta: Record<string, unknown>, finish_reason: string | null = null) =>
    dataEvent({
      id: `chatcmpl-fake-${ctx.seq}`,
      object: "chat.completion.chunk",
      created,
      model: ctx.model,
      system_fingerprint: "fp_fake",
      choices: [{ index: 0, delta, logprobs: null, finish_reason }],
      usage: null,
    });
  const out: WireAction[] = [chunk({ role: "assistant", content: "", refusal: null })];
  let toolIndex = 0;
  for (const step of script) {
    switch (step.type) {
      case "text":
        for (const content of splitIntoDeltas(step.text, step.chunks)) out.push(chunk({ content }));
        break;
      case "thinking":
        if (reasoningField !== "none") {
          for (const text of splitIntoDeltas(step.thinking)) out.push(chunk({ [reasoningField]: text }));
        }
        break;
      case "tool_call": {
        const index = toolIndex++;
        const id = step.id ?? `call_fake_${ctx.seq}_${index}`;
        out.push(
          chunk({ tool_calls: [{ index, id, type: "function", function: { name: step.name, arguments: "" } }] }),
        );
        for (const args of splitIntoDeltas(toolArgsText(step), step.chunks ?? 3)) {
          out.push(chunk({ tool_calls: [{ index, function: { arguments: args } }] }));
        }
        break;
      }
      case "cut":
        out.push({ kind: "cut" });
        return out;
      case "stall":
        out.push({ kind: "stall", ms: step.ms });
        break;
      case "error_event":
        // Chat Completions reports a failure mid-stream as a data line carrying `error`.
        out.push(
          dataEvent({
            error: {
              message:
                step.kind === "server_error"
                  ? "The server had an error while processing your request. Sorry about that!"
                  : "The engine is currently overloaded, please try again later",
              type: "server_error",
              param: null,
              code: null,
            },
          }),
        );
        out.push({ kind: "end" });
        return out;
      default:
        break;
    }
  }
  out.push(chunk({}, finishReasons[scriptStopReason(script)]));
  const streamOptions = ctx.body.stream_options as { include_usage?: boolean } | undefined;
  if (streamOptions?.include_usage) {
    const usage = scriptUsage(script);
    const prompt = usage.input + (usage.cacheRead ?? 0) + (usage.cacheWrite ?? 0);
    out.push(
      dataEvent({
        id: `chatcmpl-fake-${ctx.seq}`,
        object: "chat.completion.chunk",
        created,
        model: ctx.model,
        system_fingerprint: "fp_fake",
        choices: [],
        usage: {
          prompt_tokens: prompt,
          completion_tokens: usage.output,
          total_tokens: prompt + usage.output,
          prompt_tokens_details: { cached_tokens: usage.cacheRead ?? 0, audio_tokens: 0 },
          completion_tokens_details: { reasoning_tokens: usage.reasoning ?? 0, audio_tokens: 0 },
        },
      }),
    );
  }
  out.push(dataEvent("[DONE]"), { kind: "end" });
  return out;
}
