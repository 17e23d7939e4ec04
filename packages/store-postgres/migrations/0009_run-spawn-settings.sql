-- Chorus session store, schema version 9: a sub-agent run's spawn settings (label, time limit, the spawning run's
-- trust tier) as JSON, so that the instance taking its session over after its instance died runs it again as the
-- first run was spawned. NULL for root runs and for runs stored before this version.

-- Up Migration

ALTER TABLE runs ADD COLUMN spawn text;
