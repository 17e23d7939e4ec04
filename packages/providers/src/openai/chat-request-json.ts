import type OpenAI from "openai";

type ChatParams = OpenAI.Chat.ChatCompletionCreateParamsStreaming;

/** Each tool entry's JSON, kept per entry object (`buildChatRequest` hands out the same entry for the same tool). */
const toolJson = new WeakMap<object, string>();

/**
 * The request body as JSON text, the tool definitions serialised once per tool rather than on every call: they are
 * most of a short turn's body (13 built-in tools ≈ 8 KB) and never change.
 * Contract: the same text as `JSON.stringify(request)`, with `tools` last.
 */
export function chatRequestJson(request: ChatParams): string {
  const { tools, ...rest } = request;
  const head = JSON.stringify(rest);
  if (tools === undefined || tools.length === 0) return head;
  const entries = tools.map((tool) => {
    let json = toolJson.get(tool);
    if (json === undefined) {
      json = JSON.stringify(tool);
      toolJson.set(tool, json);
    }
    return json;
  });
  return `${head.slice(0, -1)},"tools":[${entries.join(",")}]}`;
}
