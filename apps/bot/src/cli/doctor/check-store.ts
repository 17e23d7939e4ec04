import { describeError } from "@chorus/gateway";
import type { BotConfig } from "../../config/bot-config-schema.js";
import { openStore } from "../../runtime/open-store.js";
import type { DoctorCheck } from "./doctor-check.js";

/**
 * Opens the configured store (migrating it if needed, as start would), reads from it and closes it.
 * Contract: never rejects; a locked, corrupt or too-new database fails with the store's own message.
 */
export async function checkStore(config: BotConfig, cwd: string): Promise<DoctorCheck> {
  try {
    const { store, description } = openStore(config, cwd);
    try {
      const sessions = await store.listSessions();
      return { name: "store", ok: true, detail: `${description} opens (${sessions.length} session(s))` };
    } finally {
      await store.close();
    }
  } catch (error) {
    return { name: "store", ok: false, detail: describeError(error) };
  }
}
