import type { AssistantMessage } from "../messages/message-types.js";
import type { AssistantMessageEvent } from "../stream/assistant-message-event.js";
import type { ScriptedBlock, ScriptedReply } from "./script-types.js";

/** One step of a scripted stream: wait, or emit the event the thunk builds. */
export type Step = number | (() => AssistantMessageEvent);

/** Orders a reply's blocks: explicit `blocks`, else thinking, text, tool calls. */
export function replyBlocks(reply: ScriptedReply): ScriptedBlock[] {
  if (reply.blocks) return reply.blocks;
  const blocks: ScriptedBlock[] = [];
  if (reply.thinking !== undefined) {
    const t = typeof reply.thinking === "string" ? { thinking: reply.thinking } : reply.thinking;
    blocks.push({ type: "thinking", ...t });
  }
  if (reply.text !== undefined) blocks.push({ type: "text", text: reply.text });
  for (const call of reply.toolCalls ?? []) blocks.push({ ...call, type: "toolCall" });
  return blocks;
}

/**
 * The steps that stream a reply's content into `partial` (without `start` or the final event).
 * `nextId` names tool calls that have no scripted id.
 */
export function* contentSteps(
  reply: ScriptedReply,
  partial: AssistantMessage,
  nextId: () => string,
): Generator<Step, void, undefined> {
  const tokenDelay = reply.tokenDelayMs ?? 0;
  for (const block of replyBlocks(reply)) {
    if (block.delayMs) yield block.delayMs;
    const contentIndex = partial.content.length;
    if (block.type === "text") {
      const content = { type: "text" as const, text: "" };
      yield () => {
        partial.content.push(content);
        return { type: "text_start", contentIndex, partial };
      };
      for (const chunk of block.chunks ?? [block.text]) {
        if (tokenDelay) yield tokenDelay;
        yield () => {
          content.text += chunk;
          return { type: "text_delta", contentIndex, delta: chunk, partial };
        };
      }
      yield () => ({ type: "text_end", contentIndex, content: content.text, partial });
    } else if (block.type === "thinking") {
      const content: { type: "thinking"; thinking: string; signature?: string; redacted?: boolean } = {
        type: "thinking",
        thinking: "",
      };
      yield () => {
        partial.content.push(content);
        return { type: "thinking_start", contentIndex, partial };
      };
      if (tokenDelay) yield tokenDelay;
      yield () => {
        content.thinking = block.thinking;
        return { type: "thinking_delta", contentIndex, delta: block.thinking, partial };
      };
      yield () => {
        if (block.signature !== undefined) content.signature = block.signature;
        if (block.redacted) content.redacted = true;
        return { type: "thinking_end", contentIndex, content: content.thinking, partial };
      };
    } else {
      const args = block.args ?? {};
      const call: {
        type: "toolCall";
        id: string;
        name: string;
        arguments: Record<string, unknown>;
        incomplete?: boolean;
      } = { type: "toolCall", id: block.id ?? nextId(), name: block.name, arguments: {} };
      yield () => {
        partial.content.push(call);
        return { type: "toolcall_start", contentIndex, partial };
      };
      if (tokenDelay) yield tokenDelay;
      yield () => ({ type: "toolcall_delta", contentIndex, delta: JSON.stringify(args), partial });
      // An incomplete call never gets a toolcall_end: the output limit cut it off mid-arguments.
      if (block.incomplete) {
        call.incomplete = true;
        continue;
      }
      yield () => {
        call.arguments = args;
        return { type: "toolcall_end", contentIndex, toolCall: call, partial };
      };
    }
  }
  if (reply.endDelayMs) yield reply.endDelayMs;
}
