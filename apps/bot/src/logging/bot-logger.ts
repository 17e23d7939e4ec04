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
  /** Where lines go; default stdout (JSON lines written synchronously, so none is lost at an exit). */
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
 * Standard output for JSON lines, each written before `log` returns. Why not `process.stdout`: on a pipe it queues
 * what the reader has not taken yet, and an exit right after logging (a fatal start-up error) lost the queued lines
 * (json-log-lines-survive-an-exit.test.ts). An asynchronous destination was measured too: 99 µs of CPU per line at one
 * line a millisecond against ~25 for this one (bench/README.md, issue #33).
 */
function jsonDestination(): pino.DestinationStream {
  return pino.destination({ dest: 1, sync: true });
}
