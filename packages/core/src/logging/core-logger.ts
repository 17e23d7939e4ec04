/**
 * The logger the core accepts: a subset of pino's API, so a pino logger (or console-like
 * adapter) fits. The core never logs unless given one, and never logs message content or keys.
 */
export interface CoreLogger {
  warn(obj: Record<string, unknown>, msg?: string): void;
  debug?(obj: Record<string, unknown>, msg?: string): void;
}
