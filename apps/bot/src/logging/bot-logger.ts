import pino, { type Logger } from "pino";
import pretty from "pino-pretty";
import { REDACTED, scrubSecrets } from "./secret-scrubber.js";
import { traceFields } from "./trace-fields.js";

/** How log lines look: pretty for people, JSON for machines, or chosen by whether stdout is a terminal. */
export type LogFormat = "auto" | "pretty" | "json";

/** Options of the bot's logger. */
export interface BotLoggerOptions {
  readonly level: string;
  readonly format: LogFormat;
  /** Secret values from the config (tokens, keys); replaced wherever they appear. */
  readonly secrets?: readonly string[];
  /** Where lines go; default stdout (JSON lines asynchronously, flushed on exit). */
  readonly destination?: NodeJS.WritableStream;
  /** Whether the destination is a terminal (decides "auto"); default process.stdout.isTTY. */
  readonly isTTY?: boolean;
}

/** Field paths whose values never reach a log. */
export const REDACTED_PATHS = [
  "token",
  "apiKey",
  "botToken",
  "appToken",
  "signingSecret",
  "secret",
  "secretToken",
  "password",
  "authorization",
  "headers.authorization",
  "headers.Authorization",
  "headers['x-api-key']",
  "*.token",
  "*.apiKey",
  "*.botToken",
  "*.appToken",
  "*.signingSecret",
  "*.secretToken",
  "*.authorization",
  "*.headers.authorization",
  "*.headers['x-api-key']",
];

/**
 * The bot's pino logger: pretty on a terminal, JSON otherwise; secret fields redacted and secret values (known ones
 * and anything shaped like a key or token) scrubbed from every line, messages and errors included.
 * Lines written inside a traced span carry `trace_id` and `span_id`.
 * Contract: child loggers (`logger.child({ sessionKey, runId })`) carry their fields on every line.
 */
export function createBotLogger(options: BotLoggerOptions): Logger {
  const secrets = [...(options.secrets ?? [])];
  const isTTY = options.isTTY ?? Boolean(process.stdout.isTTY);
  const usePretty = options.format === "pretty" || (options.format === "auto" && isTTY);
  const stream = usePretty
    ? pretty({
        colorize: isTTY,
        destination: options.destination ?? process.stdout,
        translateTime: "HH:MM:ss",
        ignore: "pid,hostname",
        sync: true,
      })
    : (options.destination ?? jsonDestination());
  return pino(
    {
      level: options.level,
      base: null,
      mixin: traceFields,
      redact: { paths: REDACTED_PATHS, censor: REDACTED },
      hooks: { streamWrite: (line) => scrubSecrets(line, secrets) },
    },
    stream as pino.DestinationStream,
  );
}

/**
 * Standard output for JSON lines, written asynchronously: a write to a pipe is synchronous in Node, and under load a
 * line per message blocked the event loop while the reader caught up (bench/README.md, "Removed costs"). Lines written
 * while a write is in flight go out together; pino flushes what is left synchronously when the process exits.
 */
function jsonDestination(): pino.DestinationStream {
  return pino.destination({ dest: 1, sync: false });
}
