/** Why a fact or a call was refused. */
export type MemoryErrorCode = "fact_empty" | "fact_too_long" | "fact_has_secret" | "store_closed";

/** A refused fact or call. Contract: `message` is safe to show the user (it never repeats a secret). */
export class MemoryError extends Error {
  readonly code: MemoryErrorCode;

  constructor(code: MemoryErrorCode, message: string) {
    super(message);
    this.name = "MemoryError";
    this.code = code;
  }
}
