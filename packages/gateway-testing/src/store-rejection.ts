import { SessionStoreError } from "@chorus/store";

/** The `SessionStoreError` `promise` rejects with; throws if it resolves or rejects with anything else. */
export async function rejection(promise: Promise<unknown>): Promise<SessionStoreError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof SessionStoreError) return error;
    throw error;
  }
  throw new Error("expected the call to reject");
}
