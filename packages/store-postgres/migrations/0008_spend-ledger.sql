-- Chorus session store, schema version 8: the spend ledger (issue #19) — model use per agent, user and goal per UTC
-- day, and the budgets' reservations, shared by every gateway of a cluster.
-- (Versions 4–7 belong to other changes; the numbers only need to grow.)
-- A row per (kind, subject, period): period is a UTC day ('2026-11-26') or 'total' (a goal's or schedule's whole
-- life). reserved_* are the holds of model calls under way, each listed in spend_holds with when it lapses.

-- Up Migration

CREATE TABLE spend_ledger (
  kind text COLLATE "C" NOT NULL CHECK (kind IN ('agent', 'user', 'goal', 'schedule')),
  subject text COLLATE "C" NOT NULL,
  period text COLLATE "C" NOT NULL,
  tokens bigint NOT NULL DEFAULT 0,
  cost double precision NOT NULL DEFAULT 0,
  reserved_tokens bigint NOT NULL DEFAULT 0,
  reserved_cost double precision NOT NULL DEFAULT 0,
  updated_at bigint NOT NULL,
  PRIMARY KEY (kind, subject, period)
);

CREATE TABLE spend_holds (
  id text COLLATE "C" NOT NULL,
  kind text COLLATE "C" NOT NULL,
  subject text COLLATE "C" NOT NULL,
  period text COLLATE "C" NOT NULL,
  tokens bigint NOT NULL,
  cost double precision NOT NULL,
  held_until bigint NOT NULL,
  PRIMARY KEY (id, kind, subject, period)
);
CREATE INDEX spend_holds_by_row ON spend_holds (kind, subject, period, held_until);
