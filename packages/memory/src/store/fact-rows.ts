import type { Fact, FactRevision } from "../facts/fact-types.js";

/** A fact as both stores keep it: one row, snake_case columns, history as JSON text. */
export interface FactRow {
  id: string;
  scope: string;
  subject: string | null;
  text: string;
  source_session: string;
  source_message: string | null;
  source_at: number | string;
  created_at: number | string;
  updated_at: number | string;
  history: string | FactRevision[];
}

/** A stored row as a `Fact`. (Postgres returns bigints as strings and jsonb parsed; SQLite numbers and text.) */
export function factFromRow(row: FactRow): Fact {
  const history = typeof row.history === "string" ? (JSON.parse(row.history) as FactRevision[]) : row.history;
  return {
    id: row.id,
    scope: row.scope,
    text: row.text,
    ...(row.subject === null ? {} : { subject: row.subject }),
    source: {
      sessionKey: row.source_session,
      ...(row.source_message === null ? {} : { messageId: row.source_message }),
      at: Number(row.source_at),
    },
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    history,
  };
}

/** The column values of a fact, in the order of `FACT_COLUMNS`. */
export function factValues(fact: Fact, norm: string): (string | number | null)[] {
  return [
    fact.id,
    fact.scope,
    fact.subject ?? null,
    fact.text,
    norm,
    fact.source.sessionKey,
    fact.source.messageId ?? null,
    fact.source.at,
    fact.createdAt,
    fact.updatedAt,
    JSON.stringify(fact.history),
  ];
}

/** The columns `factValues` fills. */
export const FACT_COLUMNS =
  "id, scope, subject, text, norm, source_session, source_message, source_at, created_at, updated_at, history";

/** A page size within 1..200 (default 20). */
export function pageLimit(limit: number | undefined, fallback = 20): number {
  if (limit === undefined || !Number.isFinite(limit)) return fallback;
  return Math.min(200, Math.max(1, Math.floor(limit)));
}
