import { describeError } from "@chorus/gateway";
import { postgresDescription } from "../../runtime/open-store.js";
import type { DoctorCheck } from "./doctor-check.js";

/**
 * Checks a PostgreSQL store without changing it: the server answers (within 5 s), and the schema version is one this
 * Chorus can use (older ones are migrated at start; a newer one is refused). A database a running Chorus holds passes.
 * Contract: never rejects; the password never appears in the detail.
 */
export async function checkPostgresStore(store: { url: string; schema?: string | undefined }): Promise<DoctorCheck> {
  try {
    const { inspectPostgresStore } = await import("@chorus/store-postgres");
    const found = await inspectPostgresStore({
      url: store.url,
      ...(store.schema === undefined ? {} : { schema: store.schema }),
    });
    const where = `${postgresDescription(found.description, found.schema)} (server ${found.serverVersion})`;
    if (found.schemaVersion > found.codeVersion) {
      return {
        name: "store",
        ok: false,
        detail:
          `${where} has schema version ${found.schemaVersion}, but this Chorus only knows up to version ` +
          `${found.codeVersion}: upgrade Chorus, or point it at another database`,
      };
    }
    const schema =
      found.schemaVersion === 0
        ? `no Chorus schema yet (version ${found.codeVersion} is created at start)`
        : found.schemaVersion < found.codeVersion
          ? `schema version ${found.schemaVersion} (migrated to ${found.codeVersion} at start)`
          : `schema version ${found.schemaVersion}`;
    const use = found.inUse ? "; in use by a running Chorus" : "";
    return { name: "store", ok: true, detail: `${where} reachable, ${schema}${use}` };
  } catch (error) {
    return { name: "store", ok: false, detail: describeError(error) };
  }
}
