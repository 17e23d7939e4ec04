import type { AgentMessage, Model, StreamFn } from "@chorus/core";
import { z } from "zod";

/** What the supervisor must answer. */
export const supervisorVerdictSchema = z.strictObject({ achieved: z.boolean(), reason: z.string().trim().min(1) });

/**
 * The supervisor's answer, or why there is none: `failed` counts toward `maxSupervisorFails`; `cancelled` (the
 * caller's signal) counts for nothing.
 */
export type SupervisorOutcome =
  | {
      readonly kind: "verdict";
      readonly achieved: boolean;
      readonly reason: string;
      /** The last autonomous turn the supervisor read (set by the goal keeper from the transcript it showed). */
      readonly turn?: number;
    }
  | { readonly kind: "failed"; readonly error: string }
  | { readonly kind: "cancelled" };

/** One supervisor check. */
export interface SupervisorCheck {
  readonly streamFn: StreamFn;
  readonly model: Model;
  readonly timeoutMs: number;
  readonly goal: string;
  /** The session's transcript; the most recent part is shown. */
  readonly transcript: readonly AgentMessage[];
  /** Cancels the call (the gateway is stopping). */
  readonly signal?: AbortSignal;
  /** The goal's session: passed as the call's `sessionId`, so the call counts against the session's budgets. */
  readonly sessionKey?: string;
}

/** Marks the supervisor's call, for logs and for scripted models in tests. */
export const SUPERVISOR_SYSTEM_PROMPT =
  "You are the supervisor of an autonomous agent. Judge only from the transcript whether its goal has been " +
  'achieved. Answer with one JSON object and nothing else: {"achieved": true|false, "reason": "<one sentence>"}.';

/** How much of the transcript the supervisor reads. */
const RECENT_MESSAGES = 12;
const MAX_EXCERPT_CHARS = 8_000;

/**
 * Asks an independent model whether the goal is achieved: its own call through the StreamFn, bounded by
 * `timeoutMs`, the answer validated as `{ achieved, reason }`.
 * Contract: never rejects; a provider error (429 included), a timeout or an answer that is not the JSON asked for
 * resolves `failed` with a sentence for logs and the chat; a call cancelled through `signal` resolves `cancelled`.
 */
export async function askSupervisor(check: SupervisorCheck): Promise<SupervisorOutcome> {
  // A function, not a narrowed property read: the signal may abort while the call runs.
  const cancelled = (): boolean => check.signal?.aborted === true;
  if (cancelled()) return { kind: "cancelled" };
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), check.timeoutMs);
  const cancel = (): void => controller.abort();
  check.signal?.addEventListener("abort", cancel, { once: true });
  try {
    const content = `Goal: ${check.goal}\n\nRecent transcript:\n${excerpt(check.transcript)}`;
    const message = await check
      .streamFn(
        check.model,
        { systemPrompt: SUPERVISOR_SYSTEM_PROMPT, messages: [{ role: "user", content, timestamp: Date.now() }] },
        {
          signal: controller.signal,
          // Booked against the goal's session as a supervisor check (kind `supervisor`).
          ...(check.sessionKey === undefined ? {} : { sessionId: check.sessionKey, purpose: "supervisor" }),
        },
      )
      .result();
    if (message.stopReason === "error" || message.stopReason === "aborted") {
      if (cancelled()) return { kind: "cancelled" };
      if (controller.signal.aborted) return { kind: "failed", error: `no answer within ${check.timeoutMs} ms` };
      const kind = message.error?.kind ?? "unknown";
      return { kind: "failed", error: `${kind}: ${message.errorMessage ?? "the call failed"}` };
    }
    const text = message.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("");
    return parseVerdict(text);
  } catch (error) {
    if (cancelled()) return { kind: "cancelled" };
    return { kind: "failed", error: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
    check.signal?.removeEventListener("abort", cancel);
  }
}

/** The verdict in a supervisor's answer (a JSON object, possibly fenced). Contract: `failed` when it is not one. */
export function parseVerdict(text: string): SupervisorOutcome {
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  if (start < 0 || end < start) return { kind: "failed", error: "the supervisor did not answer with JSON" };
  let json: unknown;
  try {
    json = JSON.parse(text.slice(start, end + 1));
  } catch {
    return { kind: "failed", error: "the supervisor's answer is not valid JSON" };
  }
  const parsed = supervisorVerdictSchema.safeParse(json);
  if (!parsed.success) return { kind: "failed", error: "the supervisor's answer lacks achieved or reason" };
  return { kind: "verdict", ...parsed.data };
}

/** The last messages as plain lines: who said what, tool calls by name, results shortened. */
function excerpt(transcript: readonly AgentMessage[]): string {
  const lines = transcript.slice(-RECENT_MESSAGES).map((message) => {
    const m = message as { role?: string; content?: unknown; toolName?: string };
    return `[${m.role ?? "?"}${m.toolName === undefined ? "" : ` ${m.toolName}`}] ${plain(m.content)}`;
  });
  const text = lines.join("\n");
  return text.length <= MAX_EXCERPT_CHARS ? text : text.slice(text.length - MAX_EXCERPT_CHARS);
}

function plain(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return (content as { type?: string; text?: string; name?: string }[])
    .map((block) =>
      block.type === "text" ? (block.text ?? "") : block.type === "toolCall" ? `(calls ${block.name})` : "",
    )
    .filter((part) => part !== "")
    .join(" ")
    .slice(0, 1_000);
}
