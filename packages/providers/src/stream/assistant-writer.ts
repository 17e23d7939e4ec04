import {
  type AssistantMessage,
  type AssistantMessageEvent,
  type AssistantMessageEventStream,
  emptyUsage,
  type Model,
  type TextContent,
  type ThinkingContent,
  type ToolCall,
} from "@chorus/core";
import { parseToolArguments } from "./tool-arguments.js";

/**
 * Builds the partial AssistantMessage of one model call and pushes the matching events.
 * Every provider drives one of these from its own wire events, so all providers emit the
 * same event sequence for the same content.
 */
export class AssistantWriter {
  readonly message: AssistantMessage;
  private readonly toolArgs = new Map<number, string>();

  constructor(
    private readonly stream: AssistantMessageEventStream,
    model: Model,
  ) {
    this.message = {
      role: "assistant",
      content: [],
      api: model.api,
      provider: model.provider,
      model: model.id,
      usage: emptyUsage(),
      stopReason: "stop",
      timestamp: Date.now(),
    };
  }

  private push(event: AssistantMessageEvent): void {
    this.stream.push(event);
  }

  start(): void {
    this.push({ type: "start", partial: this.message });
  }

  /** True once any content block has started. */
  get hasOutput(): boolean {
    return this.message.content.length > 0;
  }

  textStart(): number {
    const contentIndex = this.message.content.push({ type: "text", text: "" }) - 1;
    this.push({ type: "text_start", contentIndex, partial: this.message });
    return contentIndex;
  }

  textDelta(contentIndex: number, delta: string): void {
    const block = this.message.content[contentIndex] as TextContent;
    block.text += delta;
    this.push({ type: "text_delta", contentIndex, delta, partial: this.message });
  }

  textEnd(contentIndex: number): void {
    const block = this.message.content[contentIndex] as TextContent;
    this.push({ type: "text_end", contentIndex, content: block.text, partial: this.message });
  }

  thinkingStart(initial: Partial<ThinkingContent> = {}): number {
    const block: ThinkingContent = { type: "thinking", thinking: "", ...initial };
    const contentIndex = this.message.content.push(block) - 1;
    this.push({ type: "thinking_start", contentIndex, partial: this.message });
    return contentIndex;
  }

  thinkingDelta(contentIndex: number, delta: string): void {
    const block = this.message.content[contentIndex] as ThinkingContent;
    block.thinking += delta;
    this.push({ type: "thinking_delta", contentIndex, delta, partial: this.message });
  }

  /** Sets the opaque signature (or redacted data) a provider needs to see again verbatim. */
  thinkingSignature(contentIndex: number, signature: string): void {
    const block = this.message.content[contentIndex] as ThinkingContent;
    block.signature = signature;
  }

  thinkingEnd(contentIndex: number): void {
    const block = this.message.content[contentIndex] as ThinkingContent;
    this.push({ type: "thinking_end", contentIndex, content: block.thinking, partial: this.message });
  }

  toolCallStart(id: string, name: string): number {
    const call: ToolCall = { type: "toolCall", id, name, arguments: {} };
    const contentIndex = this.message.content.push(call) - 1;
    this.toolArgs.set(contentIndex, "");
    this.push({ type: "toolcall_start", contentIndex, partial: this.message });
    return contentIndex;
  }

  toolCallDelta(contentIndex: number, delta: string): void {
    if (delta.length === 0) return;
    this.toolArgs.set(contentIndex, (this.toolArgs.get(contentIndex) ?? "") + delta);
    this.push({ type: "toolcall_delta", contentIndex, delta, partial: this.message });
  }

  /** Fills in a late id or name (OpenAI Chat sends them in any delta of the call). */
  toolCallIdentity(contentIndex: number, id: string | undefined, name: string | undefined): void {
    const call = this.message.content[contentIndex] as ToolCall;
    if (id) call.id = id;
    if (name) call.name = name;
  }

  /**
   * Parses the collected arguments. Malformed JSON marks the call `incomplete` and emits no
   * `toolcall_end`, so the loop never executes it.
   */
  toolCallEnd(contentIndex: number): void {
    const call = this.message.content[contentIndex] as ToolCall;
    const parsed = parseToolArguments(this.toolArgs.get(contentIndex) ?? "");
    if (parsed === undefined) {
      call.incomplete = true;
      return;
    }
    call.arguments = parsed;
    this.push({ type: "toolcall_end", contentIndex, toolCall: call, partial: this.message });
  }
}
