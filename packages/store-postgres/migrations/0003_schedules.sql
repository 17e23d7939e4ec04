-- Chorus session store, schema version 3: schedules (/schedule), kept across restarts.
-- (Version 2 is the shard leases of another change; the numbers only need to grow.)
-- `data` holds the gateway's JSON (what runs, where, when, the last result) as the exact text the store wrote.

-- Up Migration

CREATE TABLE schedules (
  id text COLLATE "C" PRIMARY KEY,
  status text NOT NULL CHECK (status IN ('active', 'stopped', 'done')),
  next_run_at bigint,
  data text NOT NULL,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL
);
CREATE INDEX schedules_by_age ON schedules (created_at, id);
