-- Chorus session store, schema version 2: session ownership for a cluster of gateway instances.
-- Sessions fall into 64 shards by a hash of their key (chorus_shard); each shard has one lease: an owner instance, an
-- epoch (raised whenever the shard changes owner) and an expiry on the database's clock, renewed by heartbeat. Turn
-- commits carry the epoch they started under and are refused, in their own statement, once it moved on.

-- Up Migration

-- The shard of a session key: the first 32 bits of its MD5, modulo 64 (the JavaScript side computes the same).
CREATE FUNCTION chorus_shard(key text) RETURNS integer
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT (('x' || substr(md5(key), 1, 8))::bit(32)::bigint % 64)::integer $$;

-- The database's clock in epoch milliseconds: every instance compares lease times on this one clock.
CREATE FUNCTION chorus_now_ms() RETURNS bigint
  LANGUAGE sql VOLATILE
  AS $$ SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint $$;

CREATE TABLE shard_leases (
  shard integer PRIMARY KEY CHECK (shard >= 0 AND shard < 64),
  owner text,
  epoch bigint NOT NULL DEFAULT 0,
  expires_at bigint NOT NULL DEFAULT 0
);
INSERT INTO shard_leases (shard) SELECT generate_series(0, 63);

-- The instances alive (heartbeat within a lease), so that each claims a fair share of the shards.
CREATE TABLE cluster_instances (
  instance_id text PRIMARY KEY,
  heartbeat_at bigint NOT NULL
);

-- Which instance claimed an in-flight entry: only it may mark the entry sent or failed (a cluster).
ALTER TABLE outbox ADD COLUMN claimed_by text;

-- Claims filter the unsent outbox and the running runs by shard.
CREATE INDEX outbox_unsent_by_shard ON outbox (chorus_shard(session_key)) WHERE status IN ('pending', 'in-flight');
CREATE INDEX runs_running_by_shard ON runs (chorus_shard(session_key)) WHERE status = 'running';

-- Down Migration
-- None: a release never goes back down; restore from a backup instead.
