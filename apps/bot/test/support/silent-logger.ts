import pino, { type Logger } from "pino";

/** A logger that writes nothing (tests that do not look at logs). */
export function silentLogger(): Logger {
  return pino({ level: "silent" });
}
