import { dirname, join, resolve } from "node:path";
import { describeError } from "@chorus/gateway";
import { readSqliteStoreRows, STORE_COPY_TABLES } from "@chorus/store-sqlite";
import { BotConfigError } from "../../config/bot-config-error.js";
import { resolveBotConfig } from "../../config/resolve-bot-config.js";
import { postgresDescription, storePathOf } from "../../runtime/open-store.js";
import type { CliIo } from "../cli-io.js";
import type { StoreCopyOptions } from "./parse-store-copy-args.js";

interface CopyEnds {
  readonly from: string;
  readonly to: { readonly url: string; readonly schema?: string };
}

/**
 * `chorus store copy`: copies a SQLite store (sessions with their settings, transcripts with their seqs, runs, the
 * outbox, inbound event ids, pairing requests and paired senders) into an empty PostgreSQL database or schema, in one
 * transaction there, and prints the counts. Both stores are opened with their owner locks, so a running gateway on
 * either is refused, and none can start on them during the copy.
 * Contract: resolves 0 after a complete copy; 1 with a message (and PostgreSQL unchanged) otherwise.
 */
export async function storeCopyCommand(io: CliIo, options: StoreCopyOptions): Promise<number> {
  let ends: CopyEnds;
  try {
    ends = await copyEnds(io, options);
  } catch (error) {
    io.stderr.write(`chorus store copy: ${error instanceof BotConfigError ? error.message : describeError(error)}\n`);
    return 1;
  }
  const { PostgresSessionStore } = await import("@chorus/store-postgres");
  let read: ReturnType<typeof readSqliteStoreRows> | undefined;
  try {
    read = readSqliteStoreRows(ends.from);
    const target = await PostgresSessionStore.open({
      url: ends.to.url,
      ...(ends.to.schema === undefined ? {} : { schema: ends.to.schema }),
    });
    try {
      const counts = await target.importRows(read.rows);
      io.stdout.write(`Copied SQLite ${ends.from} into ${postgresDescription(target.description, target.schema)}:\n`);
      for (const table of STORE_COPY_TABLES) io.stdout.write(`  ${table.padEnd(20)} ${counts[table]}\n`);
      return 0;
    } finally {
      await target.close();
    }
  } catch (error) {
    io.stderr.write(`chorus store copy: ${describeError(error)}\n`);
    return 1;
  } finally {
    read?.release();
  }
}

async function copyEnds(io: CliIo, options: StoreCopyOptions): Promise<CopyEnds> {
  const from = options.from === undefined ? undefined : resolve(io.cwd, options.from);
  if (from !== undefined && options.to !== undefined) {
    return { from, to: { url: options.to, ...(options.schema === undefined ? {} : { schema: options.schema }) } };
  }
  const resolved = await resolveBotConfig({ configPath: options.configPath, cwd: io.cwd, env: io.env });
  const { config } = resolved;
  const base = resolved.file === undefined ? io.cwd : dirname(resolved.file);
  // With a PostgreSQL config the SQLite file is where the default store was: `<dataDir>/chorus.db`.
  const source = from ?? storePathOf(config, base) ?? resolve(base, join(config.dataDir, "chorus.db"));
  const url = options.to ?? (config.store.kind === "postgres" ? config.store.url : undefined);
  if (url === undefined) {
    throw new Error("no PostgreSQL store to copy into: pass --to postgres://… or configure store.kind: postgres");
  }
  const schema = options.schema ?? (config.store.kind === "postgres" ? config.store.schema : undefined);
  return { from: source, to: { url, ...(schema === undefined ? {} : { schema }) } };
}
