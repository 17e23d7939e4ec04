-- Chorus session store, schema version 6: ingress leases for a cluster of gateway instances.
-- Inbound consumers a platform allows once per bot account (Telegram's getUpdates long poll, one Discord gateway
-- shard) run on one instance at a time. Each such unit (`telegram:<token hash>`, `discord:<token hash>:<shard>`) has a
-- lease like a session shard: an owner instance, an epoch raised whenever it changes owner, an expiry on the
-- database's clock renewed by the instance's heartbeat, and the state the holder leaves for the next one (a Discord
-- shard's session id and sequence).

-- Up Migration

CREATE TABLE ingress_leases (
  unit text PRIMARY KEY,
  owner text,
  epoch bigint NOT NULL DEFAULT 0,
  expires_at bigint NOT NULL DEFAULT 0,
  state jsonb
);
CREATE INDEX ingress_leases_by_owner ON ingress_leases (owner);

-- Down Migration
-- None: a release never goes back down; restore from a backup instead.
