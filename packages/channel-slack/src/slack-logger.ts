import type { Logger, LogLevel } from "@slack/bolt";

/**
 * A bolt/socket-mode logger that prints nothing and hands errors to the channel's onError, so the host's own
 * logger decides what is shown (bolt's default logger writes to the console).
 * Contract: never throws; only `error` calls are forwarded, joined into one Error.
 */
export function forwardingSlackLogger(onError: ((error: unknown) => void) | undefined, level: LogLevel): Logger {
  let current = level;
  return {
    debug: () => {},
    info: () => {},
    warn: () => {},
    error: (...parts: unknown[]) => {
      const error = parts.find((part) => part instanceof Error);
      const text = parts.map((part) => (part instanceof Error ? part.message : String(part))).join(" ");
      onError?.(error ?? new Error(text));
    },
    setLevel: (next) => {
      current = next;
    },
    getLevel: () => current,
    setName: () => {},
  };
}
