import { isAbsolute, join, resolve } from "node:path";
import { MemorySessionStore, type SessionStore } from "@chorus/gateway";
import { SqliteSessionStore } from "@chorus/store-sqlite";
import type { BotConfig } from "../config/bot-config-schema.js";

/** The store a configuration asks for, and how to describe it. */
export interface OpenedStore {
  readonly store: SessionStore;
  /** e.g. "SQLite /srv/bot/data/chorus.db" or "memory (nothing survives a restart)". */
  readonly description: string;
}

/** Where the SQLite file of a configuration lives. */
export function storePathOf(config: Pick<BotConfig, "store" | "dataDir">, cwd: string): string | undefined {
  if (config.store.kind !== "sqlite") return undefined;
  const path = config.store.path ?? join(config.dataDir, "chorus.db");
  return isAbsolute(path) ? path : resolve(cwd, path);
}

/**
 * Opens the configured session store (SQLite by default, under the data dir).
 * Contract: throws SessionStoreError (`corrupt`, `locked`, `io`, `schema-too-new`) when the file cannot be used.
 */
export function openStore(config: Pick<BotConfig, "store" | "dataDir">, cwd: string): OpenedStore {
  const path = storePathOf(config, cwd);
  if (path === undefined) {
    return { store: new MemorySessionStore(), description: "memory (nothing survives a restart)" };
  }
  return { store: SqliteSessionStore.open({ path }), description: `SQLite ${path}` };
}
