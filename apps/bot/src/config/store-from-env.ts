import type { BotConfigInput } from "./bot-config-schema.js";

/**
 * The store a configuration without a `store` section gets from the environment: PostgreSQL when `DATABASE_URL` is
 * set, else nothing (SQLite stays the default).
 * Contract: pure; `undefined` when the environment names no database.
 */
export function storeFromEnv(env: NodeJS.ProcessEnv): BotConfigInput["store"] | undefined {
  const url = env.DATABASE_URL;
  return url === undefined || url === "" ? undefined : { kind: "postgres", url };
}

/** `input` with `storeFromEnv` filled in when it is a configuration object without a `store` section. */
export function withStoreFromEnv(input: unknown, env: NodeJS.ProcessEnv): unknown {
  if (typeof input !== "object" || input === null || Array.isArray(input) || "store" in input) return input;
  const store = storeFromEnv(env);
  return store === undefined ? input : { ...input, store };
}
