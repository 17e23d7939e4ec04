-- Chorus session store, schema version 5: the fleet across cluster instances.
-- Each instance reports the runs live in it (id, tokens and cost so far) with its heartbeat, in the same statement
-- that renews its leases: `/agents` on any instance shows every run with the instance running it and that
-- instance's heartbeat age, at no cost per message.
-- A sub-agent session now falls into its root session's shard: its runs live in the process of the instance that
-- owns the root (where the parent turn ran), so the takeover of that shard is what interrupts them when that instance
-- dies, and a rebalance keeps the shard while one of them runs. Root sessions keep their shard.

-- Up Migration

ALTER TABLE cluster_instances ADD COLUMN live_runs jsonb NOT NULL DEFAULT '[]'::jsonb;

-- The shard of a session key: the first 32 bits of the MD5 of its root session's key (a sub-agent key,
-- `agent:<agent>:sub:<depth>:<childId>:<parentKey>`, loses its sub-agent prefixes), modulo 64. The JavaScript side
-- (`sessionShard`) computes the same.
CREATE OR REPLACE FUNCTION chorus_shard(key text) RETURNS integer
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT (('x' || substr(md5(regexp_replace(key, '^(agent:[^:]+:sub:[0-9]+:[^:]+:)+', '')), 1, 8))::bit(32)::bigint % 64)::integer $$;

-- Every index of this schema on the shard of a row is built again with the new function (0002's on the outbox and
-- the runs, and any an earlier step added).
DO $$
DECLARE
  found record;
BEGIN
  FOR found IN
    SELECT i.indexrelid::regclass AS name FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
    WHERE c.relnamespace = current_schema()::regnamespace AND pg_get_indexdef(i.indexrelid) LIKE '%chorus_shard(%'
  LOOP
    EXECUTE format('REINDEX INDEX %s', found.name);
  END LOOP;
END
$$;

-- Down Migration
-- None: a release never goes back down; restore from a backup instead.
