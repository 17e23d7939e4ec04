import type { ProviderErrorInfo, ProviderErrorKind } from "@chorus/core";
import { isContextOverflowText } from "./context-overflow.js";
import { type HeaderLookup, retryAfterMs } from "./retry-after.js";

/** What a classifier knows beyond the error itself. */
export interface ClassifyContext {
  /** Names the setting that fixes an auth failure, e.g. "ANTHROPIC_API_KEY (or the apiKey option)". */
  authHint: string;
  /** The caller's signal: an abort is "aborted", not a network failure. */
  signal?: AbortSignal | undefined;
  /** Set when our own timeout (total or idle) fired. */
  timeoutMessage?: string | undefined;
  /** True when some output had streamed before the failure. */
  partialOutput?: boolean;
}

interface ApiErrorShape {
  status?: number | undefined;
  headers?: HeaderLookup | undefined;
  message?: string;
  error?: unknown;
  code?: unknown;
  type?: unknown;
}

/**
 * Classifies any failure of a model call for the core's retry strategy.
 * Contract: never throws; works on errors from @anthropic-ai/sdk, openai, fetch and plain Errors
 * by their shape (status, headers, body), so it needs no SDK import.
 */
export function classifyProviderError(error: unknown, ctx: ClassifyContext): ProviderErrorInfo {
  const base = (kind: ProviderErrorKind, message: string, extra: Partial<ProviderErrorInfo> = {}) => {
    const info: ProviderErrorInfo = { kind, message, ...extra };
    if (ctx.partialOutput) info.partialOutput = true;
    return info;
  };
  if (ctx.timeoutMessage) return base("timeout", ctx.timeoutMessage);
  if (ctx.signal?.aborted) return base("aborted", "Request was aborted");
  const e = (typeof error === "object" && error !== null ? error : { message: String(error) }) as ApiErrorShape;
  const name = (error as { constructor?: { name?: string } })?.constructor?.name ?? "";
  const message = cleanMessage(e.message ?? String(error));
  const bodyText = `${message} ${safeJson(e.error)} ${typeof e.code === "string" ? e.code : ""}`;
  if (name === "APIUserAbortError") return base("aborted", "Request was aborted");
  // A model SDK that is not installed (MissingSdkError): retrying cannot help.
  if (e.code === "ERR_MODULE_NOT_FOUND") return base("invalid_request", message);
  if (name === "APIConnectionTimeoutError") return base("timeout", `Request timed out: ${message}`);
  if (name === "APIConnectionError") return base("network", `Network error: ${message}`);
  const status = typeof e.status === "number" ? e.status : undefined;
  const withStatus = status === undefined ? {} : { status };
  if (status === undefined) {
    // Mid-stream error events have no status; their body names the kind.
    if (/overloaded/i.test(bodyText)) return base("overloaded", message);
    if (/rate_limit/i.test(bodyText)) return base("rate_limit", message);
    if (isContextOverflowText(bodyText)) return base("context_overflow", message);
    if (/api_error|server_error|internal/i.test(bodyText)) return base("server", message);
    if (/terminated|ECONNRESET|socket|network|fetch failed|premature|other side closed/i.test(message)) {
      return base("network", `Network error: ${message}`);
    }
    return base("unknown", message);
  }
  if (status === 429) {
    const wait = retryAfterMs(e.headers);
    return base("rate_limit", message, { ...withStatus, ...(wait === undefined ? {} : { retryAfterMs: wait }) });
  }
  if (status === 401 || status === 403) {
    return base("auth", `Authentication failed (${status}): ${message}. Check ${ctx.authHint}.`, withStatus);
  }
  if (status === 529 || status === 503 || /overloaded/i.test(bodyText)) {
    const wait = retryAfterMs(e.headers);
    return base("overloaded", message, { ...withStatus, ...(wait === undefined ? {} : { retryAfterMs: wait }) });
  }
  if (status === 413 || ((status === 400 || status === 422) && isContextOverflowText(bodyText))) {
    return base("context_overflow", message, withStatus);
  }
  if (status === 408) return base("timeout", message, withStatus);
  if (status >= 500) return base("server", message, withStatus);
  return base("invalid_request", message, withStatus);
}

function safeJson(value: unknown): string {
  if (value === undefined) return "";
  try {
    return JSON.stringify(value);
  } catch {
    return "";
  }
}

/** Strips anything that looks like a secret key from a message before it reaches a log. */
export function cleanMessage(message: string): string {
  return message.replace(/\b(sk-[A-Za-z0-9_-]{6})[A-Za-z0-9_-]+/g, "$1…");
}
