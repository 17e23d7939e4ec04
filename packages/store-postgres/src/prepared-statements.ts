import type { QueryConfig } from "pg";

/** Texts of the statements prepared once per connection, and their names. */
const NAMES = new Map<string, string>();

/**
 * Marks a hot-path statement to be sent as a named prepared statement: the server parses and plans it once per
 * connection instead of on every call (the hot statements are large data-modifying CTEs), and later calls send only
 * the name and the values. Contract: returns `text` unchanged; `name` is unique among prepared statements.
 */
export function prepared(name: string, text: string): string {
  NAMES.set(text, `chorus_${name}`);
  return text;
}

/** The query node-postgres sends for `text`: named when it was marked `prepared`, else unnamed (parsed each time). */
export function queryFor(text: string, values: readonly unknown[] | undefined): QueryConfig {
  const name = NAMES.get(text);
  const config: QueryConfig = values === undefined ? { text } : { text, values: values as unknown[] };
  return name === undefined ? config : { ...config, name };
}

/**
 * Whether `error` says a prepared statement's plan no longer fits the tables (another instance migrated the schema
 * while this one runs: "cached plan must not change result type"). Such a statement is then sent unnamed from now on.
 */
export function isStalePreparedPlan(error: unknown, text: string): boolean {
  if (!NAMES.has(text) || typeof error !== "object" || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (code !== "0A000" || typeof message !== "string" || !message.includes("cached plan")) return false;
  NAMES.delete(text);
  return true;
}
