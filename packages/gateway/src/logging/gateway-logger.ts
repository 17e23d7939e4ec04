/** The pino-compatible subset the gateway logs through (`logger.warn({ sessionKey }, "message")`). */
export interface GatewayLogger {
  info(fields: object, message?: string): void;
  warn(fields: object, message?: string): void;
  error(fields: object, message?: string): void;
}

/** A logger that discards everything (the default: libraries never log on their own). */
export const SILENT_LOGGER: GatewayLogger = {
  info: () => {},
  warn: () => {},
  error: () => {},
};

// A short, secret-free description of a thrown value: the store's, so that stores and the gateway log alike.
export { describeError } from "@chorus/store";
