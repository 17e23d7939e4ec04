import type { SessionStoreOps } from "../session-store.js";
import { SessionStoreError, type SessionStoreErrorCode } from "../session-store-error.js";

/** The name of a store operation the worker runs on the caller's behalf. */
export type StoreOpName = keyof SessionStoreOps;

/**
 * What the calling thread asks of the store's thread. `at` is the caller's clock when it made the call: the store's
 * records carry the caller's time (a test's hand-moved clock works as on an in-thread store). `tx` routes a call to
 * an open transaction.
 */
export type StoreThreadRequest =
  | { kind: "call"; id: number; at: number; method: StoreOpName; args: unknown[]; tx?: number }
  | { kind: "begin"; id: number; at: number; tx: number }
  | { kind: "end"; id: number; at: number; tx: number; keep: boolean }
  | { kind: "close"; id: number; at: number };

/** A settled request. */
export type StoreThreadReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: WireError };

/** What the store's thread posts: replies in batches, a background checkpoint's failure, or a store that cannot run. */
export type StoreThreadMessage =
  | { kind: "replies"; replies: StoreThreadReply[] }
  | { kind: "checkpoint-error"; message: string }
  | { kind: "fatal"; error: WireError };

/** An error as it crosses threads: a `SessionStoreError`'s fields, or any other error's name and message. */
export interface WireError {
  name: string;
  message: string;
  code?: SessionStoreErrorCode;
  path?: string;
  fileVersion?: number;
  codeVersion?: number;
}

/** Flattens an error for `postMessage` (a class instance would arrive as a plain Error). */
export function toWireError(error: unknown): WireError {
  if (error instanceof SessionStoreError) {
    return {
      name: error.name,
      message: error.message,
      code: error.code,
      ...(error.path === undefined ? {} : { path: error.path }),
      ...(error.fileVersion === undefined ? {} : { fileVersion: error.fileVersion }),
      ...(error.codeVersion === undefined ? {} : { codeVersion: error.codeVersion }),
    };
  }
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: "Error", message: String(error) };
}

/** Rebuilds the error a store call failed with. Contract: a `SessionStoreError` comes back as one, with its code. */
export function fromWireError(wire: WireError): Error {
  if (wire.code === undefined) {
    const error = new Error(wire.message);
    error.name = wire.name;
    return error;
  }
  return new SessionStoreError(wire.code, wire.message, {
    ...(wire.path === undefined ? {} : { path: wire.path }),
    ...(wire.fileVersion === undefined ? {} : { fileVersion: wire.fileVersion }),
    ...(wire.codeVersion === undefined ? {} : { codeVersion: wire.codeVersion }),
  });
}
