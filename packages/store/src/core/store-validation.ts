import { SessionStoreError } from "../session-store-error.js";
import type { RunStatus } from "../store-types.js";

/** 24 hours: how long an inbound event id is remembered by default. */
export const DEFAULT_INBOUND_EVENT_TTL_MS = 24 * 60 * 60 * 1000;

/** Serialises a message or payload, or rejects it as not storable. Contract: returns a JSON string. */
export function toStoredJson(value: unknown, what: string): string {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch (error) {
    throw new SessionStoreError("invalid-input", `The ${what} cannot be stored: it is not JSON-serialisable.`, {
      cause: error,
    });
  }
  if (json === undefined) {
    throw new SessionStoreError("invalid-input", `The ${what} cannot be stored: it is not JSON-serialisable.`);
  }
  return json;
}

/** Contract: returns `status` as a list (or `undefined` for "any"). */
export function statusList<S extends string>(status: S | readonly S[] | undefined): readonly S[] | undefined {
  if (status === undefined) return undefined;
  return typeof status === "string" ? [status] : (status as readonly S[]);
}

/** Rejects a change to a run that already ended. Contract: throws `invalid-state` unless `status` is `running`. */
export function assertRunning(id: string, status: RunStatus): void {
  if (status !== "running") {
    throw new SessionStoreError(
      "invalid-state",
      `Run ${JSON.stringify(id)} already ended (${status}); it cannot change.`,
    );
  }
}

/** Rejects an unusable `limit`. Contract: returns a positive integer or `undefined`. */
export function checkLimit(limit: number | undefined): number | undefined {
  if (limit === undefined) return undefined;
  if (!Number.isInteger(limit) || limit < 1) {
    throw new SessionStoreError("invalid-input", `limit must be a positive integer, got ${limit}.`);
  }
  return limit;
}

/** Contract: a `not-found` SessionStoreError naming what was looked for; the caller throws it. */
export function notFound(what: string, id: string | number): SessionStoreError {
  return new SessionStoreError("not-found", `No ${what} ${JSON.stringify(id)} in the session store.`);
}
