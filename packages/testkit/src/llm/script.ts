/**
 * A provider-neutral script for one model response. The same script can be played by the fake
 * Anthropic server and by both fake OpenAI endpoints, so a test can prove that one conversation
 * yields the same transcript on every provider.
 */

/** Why the fake model stopped, in neutral words; each fake maps it to its own API's value. */
export type FakeStopReason = "stop" | "length" | "toolUse" | "refusal" | "pause";

/** A content step: something the model says. */
export type FakeContentStep =
  /** Text, streamed as `chunks` deltas (default: one delta per word). */
  | { type: "text"; text: string; chunks?: number }
  /** Visible reasoning with its signature (Anthropic `signature`, OpenAI Responses `encrypted_content`). */
  | { type: "thinking"; thinking: string; signature: string }
  /** Redacted reasoning: opaque data only (Anthropic `redacted_thinking`). */
  | { type: "redacted_thinking"; data: string }
  /**
   * A tool call. `args` is serialised with JSON.stringify and streamed in `chunks` fragments;
   * `rawArgs` replaces that text verbatim, which is how a test sends malformed JSON.
   */
  | { type: "tool_call"; name: string; args?: unknown; rawArgs?: string; id?: string; chunks?: number };

/** Token counts reported at the end of the response. */
export type FakeUsageStep = {
  type: "usage";
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
  reasoning?: number;
};

/** How the response ends; without it the fakes pick `toolUse` when a tool was called, else `stop`. */
export type FakeStopStep = { type: "stop"; reason: FakeStopReason };

/** An HTTP error instead of a stream. Only valid as the first step of a script. */
export type FakeHttpFault =
  /** 429 with `retry-after` (seconds) and/or `retry-after-ms` headers. */
  | { type: "rate_limit"; retryAfterSeconds?: number; retryAfterMs?: number }
  /** 529 on Anthropic, 503 on OpenAI: the service is overloaded. */
  | { type: "overloaded" }
  /** 500 internal server error. */
  | { type: "server_error" }
  /** 400 with each provider's real "context too long" error text. */
  | { type: "context_overflow"; promptTokens?: number; limit?: number }
  /** 401 invalid key. */
  | { type: "auth_error" }
  /** 400 with a free-form message. */
  | { type: "bad_request"; message: string };

/** A fault in the middle of a stream. */
export type FakeStreamFault =
  /** Destroy the socket right here, without a clean end of stream. */
  | { type: "cut" }
  /** A mid-stream `error` event (overloaded unless said otherwise), then the stream ends. */
  | { type: "error_event"; kind?: "overloaded" | "server_error" }
  /** Send nothing for `ms` milliseconds, then go on. */
  | { type: "stall"; ms: number };

/** One step of a script. */
export type FakeLlmStep = FakeContentStep | FakeUsageStep | FakeStopStep | FakeHttpFault | FakeStreamFault;

/** A script: the steps of one response, played in order. */
export type FakeLlmScript = readonly FakeLlmStep[];

const httpFaultTypes = new Set<string>([
  "rate_limit",
  "overloaded",
  "server_error",
  "context_overflow",
  "auth_error",
  "bad_request",
]);

/** True for steps that replace the whole response with an HTTP error. */
export function isHttpFault(step: FakeLlmStep): step is FakeHttpFault {
  return httpFaultTypes.has(step.type);
}

/** Splits `text` into `chunks` near-equal pieces, or into words when `chunks` is not given. */
export function splitIntoDeltas(text: string, chunks?: number): string[] {
  if (text.length === 0) return [""];
  if (chunks === undefined) return text.match(/\s*\S+\s*/g) ?? [text];
  const count = Math.max(1, Math.min(chunks, text.length));
  const size = Math.ceil(text.length / count);
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** The text a tool call streams as its arguments. */
export function toolArgsText(step: Extract<FakeContentStep, { type: "tool_call" }>): string {
  return step.rawArgs ?? JSON.stringify(step.args ?? {});
}

/** The usage a script reports: its usage step, or a small default derived from its content. */
export function scriptUsage(script: FakeLlmScript): FakeUsageStep {
  const explicit = script.find((s): s is FakeUsageStep => s.type === "usage");
  if (explicit) return explicit;
  let output = 0;
  for (const step of script) {
    if (step.type === "text") output += splitIntoDeltas(step.text).length;
    if (step.type === "tool_call") output += 10;
    if (step.type === "thinking") output += splitIntoDeltas(step.thinking).length;
  }
  return { type: "usage", input: 10, output };
}

/** The stop reason a script ends with. */
export function scriptStopReason(script: FakeLlmScript): FakeStopReason {
  const explicit = script.find((s): s is FakeStopStep => s.type === "stop");
  if (explicit) return explicit.reason;
  return script.some((s) => s.type === "tool_call") ? "toolUse" : "stop";
}
