import { resolve } from "node:path";
import type { GatewayMemoryOptions } from "@chorus/gateway";
import { createOpenAiEmbedder, SqliteMemoryStore } from "@chorus/memory";
import type { BotConfig } from "../config/bot-config-schema.js";

/** The long-term memory the bot runs with, and how to close it. */
export interface OpenedMemory {
  readonly options: GatewayMemoryOptions;
  readonly description: string;
  close(): Promise<void>;
}

/**
 * Opens the memory the configuration asks for (`memory:`), or undefined when it asks for none. Contract: the store
 * is opened once per process and outlives gateway rebuilds (reloads, late channels); `close` at shutdown.
 */
export function openMemory(config: Pick<BotConfig, "memory" | "dataDir">, cwd: string): OpenedMemory | undefined {
  const memory = config.memory;
  if (memory === undefined || !memory.enabled) return undefined;
  const path = resolve(cwd, memory.path ?? resolve(config.dataDir, "memory.db"));
  const store = new SqliteMemoryStore({ path });
  const embeddings = memory.embeddings;
  const recall = {
    ...(memory.recallBudgetMs === undefined ? {} : { budgetMs: memory.recallBudgetMs }),
    ...(memory.recallCount === undefined ? {} : { k: memory.recallCount }),
  };
  return {
    options: {
      store,
      recall,
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
    description: `SQLite ${path}${embeddings === undefined ? "" : `, embeddings ${embeddings.model}`}`,
    close: () => store.close(),
  };
}
