import { randomBytes } from "node:crypto";

/** A new fact id: short enough to type in `/memory forget <id>` (`m` and 12 hex digits). */
export function newFactId(): string {
  return `m${randomBytes(6).toString("hex")}`;
}

/** Is `text` shaped like a fact id? */
export function isFactId(text: string): boolean {
  return /^m[0-9a-f]{12}$/.test(text.trim());
}
