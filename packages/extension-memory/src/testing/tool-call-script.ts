import type { StreamContext } from "@chorus/core";

/** The text of a message's content: the string itself, or its text blocks joined. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  return (content as { type: string; text?: string }[]).map((block) => block.text ?? "").join("");
}

/**
 * A scripted model for memory tests: a last message holding `<word>: X` (e.g. `remember: Alice likes tea`; group
 * messages carry their sender's name before it) calls `tool` with `{ [arg]: X }`; a tool result is answered
 * `answer(its text)` (default `tool said: …`); anything else `ok`.
 * @example scriptedStreamFn(toolCallScript("remember", "remember", "fact"))
 */
export function toolCallScript(
  word: string,
  tool: string,
  arg: string,
  answer: (resultText: string) => string = (text) => `tool said: ${text}`,
) {
  const pattern = new RegExp(`${word}: (.*)$`, "s");
  return (context: StreamContext) => {
    const last = context.messages.at(-1) as { role: string; content: unknown };
    if (last.role === "toolResult") return answer(contentText(last.content));
    const value = pattern.exec(contentText(last.content))?.[1];
    return value === undefined ? "ok" : { toolCalls: [{ name: tool, args: { [arg]: value } }] };
  };
}
