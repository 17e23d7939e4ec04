import type { Model, StreamFn } from "@chorus/core";
import { assistantText } from "../reply-manager/assistant-text.js";

/** Longest title kept. */
export const MAX_TITLE_LENGTH = 60;

const TITLE_PROMPT =
  "Write a title of at most six words for a conversation that starts with the user's message below. " +
  "Answer with the title only: no quotes, no punctuation at the end.";

/**
 * A title made from the message itself: its first line, cut at a word boundary.
 * Contract: pure; never empty for a message with any non-space character ("Untitled" otherwise).
 */
export function titleFromText(text: string, maxLength = MAX_TITLE_LENGTH): string {
  const line = text.trim().split("\n", 1)[0]?.replace(/\s+/g, " ").trim() ?? "";
  if (line === "") return "Untitled";
  if (line.length <= maxLength) return line;
  const cut = line.slice(0, maxLength - 1);
  const space = cut.lastIndexOf(" ");
  return `${space > maxLength / 2 ? cut.slice(0, space) : cut}…`;
}

/** A model to write titles with; without one, titles come from the first message's text. */
export interface TitleModel {
  model: Model;
  streamFn: StreamFn;
  /** Abandon the model after this long. Default 15 000 ms. */
  timeoutMs?: number;
}

/**
 * A short title for a session from its first message (seed 001 §9): one model call without tools when a title
 * model is given, else (and whenever the model fails or answers nothing) `titleFromText`.
 * Contract: never rejects.
 */
export async function generateSessionTitle(firstMessage: string, titleModel?: TitleModel): Promise<string> {
  if (titleModel === undefined) return titleFromText(firstMessage);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), titleModel.timeoutMs ?? 15_000);
  try {
    const stream = titleModel.streamFn(
      titleModel.model,
      { systemPrompt: TITLE_PROMPT, messages: [{ role: "user", content: firstMessage, timestamp: Date.now() }] },
      { signal: controller.signal },
    );
    const reply = await stream.result();
    const text = reply.stopReason === "error" || reply.stopReason === "aborted" ? "" : assistantText(reply);
    const title = titleFromText(text.replace(/^["'“]+|["'”.]+$/g, ""));
    return title === "Untitled" ? titleFromText(firstMessage) : title;
  } catch {
    return titleFromText(firstMessage);
  } finally {
    clearTimeout(timer);
  }
}
