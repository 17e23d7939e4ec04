import { resolve } from "node:path";
import { type GatewayMemoryOptions, linkedPeople } from "@chorus/extension-memory";
import type { SessionStore } from "@chorus/gateway";
import { createOpenAiEmbedder, type MemoryStore, PostgresMemoryStore, SqliteMemoryStore } from "@chorus/memory";
import type { PostgresSessionStore } from "@chorus/store-postgres";
import { keepDatabaseFilesPrivate, SqliteSessionStore } from "@chorus/store-sqlite";
import type { BotConfig } from "../config/bot-config-schema.js";

/** The long-term memory the bot runs with, and how to close it. */
export interface OpenedMemory {
  readonly options: GatewayMemoryOptions;
  readonly description: string;
  close(): Promise<void>;
}

/**
 * Opens the memory the configuration asks for (`memory:`), or undefined when it asks for none: in the session
 * store's own database (its SQLite file, or its PostgreSQL database under schema `chorus_memory`, shared by every
 * cluster instance), so each fact commits with its turn; in a file of its own with `memory.path`. Contract: opened
 * once per process after the session store, it outlives gateway rebuilds (reloads, late channels); `close` at
 * shutdown, before the session store's.
 */
export async function openMemory(
  config: Pick<BotConfig, "memory" | "dataDir" | "store">,
  cwd: string,
  sessionStore: SessionStore,
): Promise<OpenedMemory | undefined> {
  const memory = config.memory;
  if (memory === undefined || !memory.enabled) return undefined;
  const { store, description, inSessionDatabase } = await openMemoryStore(config, cwd, sessionStore);
  const embeddings = memory.embeddings;
  const recall = {
    ...(memory.recallBudgetMs === undefined ? {} : { budgetMs: memory.recallBudgetMs }),
    ...(memory.recallCount === undefined ? {} : { k: memory.recallCount }),
  };
  const extraction = memory.extraction;
  return {
    options: {
      store,
      recall,
      ...(inSessionDatabase ? { inSessionDatabase } : {}),
      ...(memory.userModel === true ? { userModel: true } : {}),
      ...(memory.people === undefined ? {} : { personOf: linkedPeople(memory.people) }),
      ...(extraction === undefined
        ? {}
        : {
            extraction: {
              model: extraction.model,
              ...(extraction.idleMs === undefined ? {} : { idleMs: extraction.idleMs }),
              ...(extraction.maxFacts === undefined ? {} : { maxFacts: extraction.maxFacts }),
            },
          }),
      ...(embeddings === undefined
        ? {}
        : {
            embedder: createOpenAiEmbedder({
              baseUrl: embeddings.baseUrl,
              model: embeddings.model,
              ...(embeddings.apiKey === undefined ? {} : { apiKey: embeddings.apiKey }),
            }),
          }),
    },
    description: `${description}${embeddings === undefined ? "" : `, embeddings ${embeddings.model}`}`,
    close: () => store.close(),
  };
}

/** Opens a memory store where `openMemory` would (used alone for the skill router's arms when `memory:` is off). */
export async function openMemoryStore(
  config: Pick<BotConfig, "memory" | "dataDir" | "store">,
  cwd: string,
  sessionStore: SessionStore,
): Promise<{ store: MemoryStore; description: string; inSessionDatabase: boolean }> {
  const own = config.memory?.path;
  if (own === undefined && sessionStore instanceof SqliteSessionStore) {
    const store = new SqliteMemoryStore({ database: sessionStore.database });
    return { store, description: `in the session store (SQLite ${sessionStore.path})`, inSessionDatabase: true };
  }
  if (own === undefined && config.store.kind === "postgres") {
    const pool = (sessionStore as PostgresSessionStore).pool;
    const store = await PostgresMemoryStore.open({ pool });
    return { store, description: "in the session store (PostgreSQL, schema chorus_memory)", inSessionDatabase: true };
  }
  const path = resolve(cwd, own ?? resolve(config.dataDir, "memory.db"));
  // Facts are as private as transcripts: the file (and the -wal/-shm SQLite gives its mode) is owner-only.
  keepDatabaseFilesPrivate(path);
  return { store: new SqliteMemoryStore({ path }), description: `SQLite ${path}`, inSessionDatabase: false };
}
