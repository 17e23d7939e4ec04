import type { IncomingMessage } from "node:http";

/**
 * Parses a request body the way platform servers do: JSON, form-urlencoded, or raw text.
 * Contract: never throws; an unparseable JSON body comes back as its raw text.
 */
export function parseRequestBody(req: IncomingMessage, raw: Buffer): unknown {
  if (raw.length === 0) return undefined;
  const type = req.headers["content-type"] ?? "";
  const text = raw.toString("utf8");
  if (type.includes("application/json")) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  if (type.includes("application/x-www-form-urlencoded")) {
    return Object.fromEntries(new URLSearchParams(text));
  }
  return text;
}

/** Narrows a parsed body to a plain record (empty when it is not one). */
export function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** Reads a string field; numbers are converted, anything else gives `undefined`. */
export function stringField(record: Record<string, unknown>, key: string): string | undefined {
  const value = record[key];
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  return undefined;
}
