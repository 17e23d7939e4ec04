import {
  AssistantMessageEventStream,
  describeAttachment,
  emptyUsage,
  type Message,
  type Model,
  type StreamContext,
  type StreamFn,
  type StreamOptions,
} from "@chorus/core";
import type { AgentMedia } from "../config/media-config.js";
import { type AttachmentProblem, hasAttachments, type ResolvedMessages } from "../reading/resolve-attachments.js";

/** What the wrapper needs: how to read a session's attachments and where to tell their problems. */
export interface MediaCallDeps {
  /** The media settings of the session's agent; undefined: leave the call alone. */
  mediaOf(sessionKey: string): AgentMedia | undefined;
  resolve(context: StreamContext, model: Model, media: AgentMedia): Promise<ResolvedMessages>;
  /** Tells the session's chat each problem once. */
  tell(sessionKey: string, problems: readonly AttachmentProblem[]): void;
}

/**
 * A StreamFn that reads the attachments of a turn's call (options with a `sessionId` and no `purpose`) before passing
 * it on: each reference becomes an image, a document or text for `model`; side calls (summaries, memory, titles) get
 * a line naming each file instead, so a compaction's summary mentions it and never reads it as unreadable. The bytes reserved for the call are given back when its stream ends.
 * Contract: like every StreamFn, never throws; a call without attachments passes straight through untouched.
 */
export function mediaStreamFn(next: StreamFn, deps: MediaCallDeps): StreamFn {
  return (model, context, options) => {
    const sessionKey = options?.sessionId;
    if (!hasAttachments(context.messages)) return next(model, context, options);
    // A side call (a compaction's summary, memory, a title) is told each file was there, never that it was unreadable,
    // so a summary keeps "Ana sent a photo" instead of dropping it or calling it broken.
    if (options?.purpose !== undefined)
      return next(model, { ...context, messages: mentioned(context.messages) }, options);
    if (sessionKey === undefined) return next(model, context, options);
    const media = deps.mediaOf(sessionKey);
    if (media === undefined) return next(model, context, options);
    const outer = new AssistantMessageEventStream();
    void relay(outer, next, deps, { sessionKey, media, model, context, options });
    return outer;
  };
}

/** The messages with each attachment as a line naming it (its content was in the conversation, not repeated). */
function mentioned(messages: readonly Message[]): Message[] {
  return messages.map((message) =>
    message.role !== "user" || typeof message.content === "string"
      ? message
      : {
          ...message,
          content: message.content.map((part) =>
            part.type === "attachment"
              ? { type: "text" as const, text: describeAttachment(part, "was in the conversation; not repeated here") }
              : part,
          ),
        },
  );
}

async function relay(
  outer: AssistantMessageEventStream,
  next: StreamFn,
  deps: MediaCallDeps,
  call: {
    sessionKey: string;
    media: AgentMedia;
    model: Model;
    context: StreamContext;
    options: StreamOptions | undefined;
  },
): Promise<void> {
  let resolved: ResolvedMessages;
  try {
    resolved = await deps.resolve(call.context, call.model, call.media);
  } catch (error) {
    outer.push({
      type: "error",
      reason: "error",
      error: failed(call.model, `Reading attachments failed: ${String(error)}`),
    });
    return;
  }
  try {
    if (resolved.problems.length > 0) deps.tell(call.sessionKey, resolved.problems);
    const stream = next(call.model, { ...call.context, messages: resolved.messages }, call.options);
    for await (const event of stream) outer.push(event);
    outer.end(await stream.result());
  } catch (error) {
    outer.push({ type: "error", reason: "error", error: failed(call.model, `StreamFn failed: ${String(error)}`) });
  } finally {
    resolved.release();
  }
}

function failed(model: Model, message: string) {
  return {
    role: "assistant" as const,
    content: [],
    api: model.api,
    provider: model.provider,
    model: model.id,
    usage: emptyUsage(),
    stopReason: "error" as const,
    errorMessage: message,
    error: { kind: "network" as const, message },
    timestamp: Date.now(),
  };
}
