import { describeError, isSessionStoreError } from "@chorus/gateway";
import type { BotConfig } from "../../config/bot-config-schema.js";
import { openStore, storePathOf } from "../../runtime/open-store.js";
import { checkPostgresStore } from "./check-postgres-store.js";
import type { DoctorCheck } from "./doctor-check.js";

/**
 * Opens the configured store (migrating it if needed, as start would), reads from it and closes it. A store a running
 * Chorus holds passes without being opened: it works, and opening it beside its owner is what the lock forbids.
 * Contract: never rejects; a locked, corrupt or too-new database fails with the store's own message.
 */
export async function checkStore(config: BotConfig, cwd: string): Promise<DoctorCheck> {
  // PostgreSQL is inspected, not opened: opening would migrate it and take the lock a starting gateway needs.
  if (config.store.kind === "postgres") return checkPostgresStore(config.store);
  try {
    const { store, description } = await openStore(config, cwd);
    try {
      const sessions = await store.listSessions();
      return { name: "store", ok: true, detail: `${description} opens (${sessions.length} session(s))` };
    } finally {
      await store.close();
    }
  } catch (error) {
    if (isSessionStoreError(error, "in-use")) {
      const path = storePathOf(config, cwd) ?? error.path ?? "";
      return {
        name: "store",
        ok: true,
        detail: `SQLite ${path} is in use by a running Chorus (it holds ${path}.lock); not opened a second time`,
      };
    }
    return { name: "store", ok: false, detail: describeError(error) };
  }
}
