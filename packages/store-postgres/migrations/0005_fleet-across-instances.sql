-- Chorus session store, schema version 5: the fleet across cluster instances.
-- Each instance reports the runs live in it (id, tokens and cost so far) with its heartbeat, in the same statement
-- that renews its leases: `/agents` on any instance shows every run with the instance running it and that
-- instance's heartbeat age, at no cost per message.

-- Up Migration

ALTER TABLE cluster_instances ADD COLUMN live_runs jsonb NOT NULL DEFAULT '[]'::jsonb;

-- Down Migration
-- None: a release never goes back down; restore from a backup instead.
