-- Chorus session store, schema version 1: sessions, transcripts, runs, inbound events, the outbox and DM pairing.
-- Applied by node-pg-migrate at open, inside one transaction, under an advisory lock. Never edit a released file;
-- add the next one (0002_…). Times are epoch milliseconds (bigint); JSON columns hold the exact text the store wrote.
-- Keys and ids use the "C" collation so that "then by key" orders as JavaScript compares strings.

-- Up Migration

CREATE TABLE sessions (
  key text COLLATE "C" PRIMARY KEY,
  agent_id text NOT NULL,
  channel text NOT NULL,
  account_id text NOT NULL,
  chat_id text NOT NULL,
  title text,
  model_override text,
  queue_mode_override text,
  settings text NOT NULL,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL,
  last_seq bigint NOT NULL DEFAULT 0,
  transcript_start_seq bigint NOT NULL DEFAULT 1,
  last_inbound_seq bigint NOT NULL DEFAULT 0,
  answered_seq bigint NOT NULL DEFAULT 0
);
CREATE INDEX sessions_by_agent ON sessions (agent_id);

CREATE TABLE transcript_messages (
  session_key text COLLATE "C" NOT NULL REFERENCES sessions (key) ON DELETE CASCADE,
  seq bigint NOT NULL,
  message text NOT NULL,
  PRIMARY KEY (session_key, seq)
);

CREATE TABLE runs (
  id text COLLATE "C" PRIMARY KEY,
  session_key text COLLATE "C" NOT NULL,
  parent_run_id text COLLATE "C",
  depth integer NOT NULL,
  agent_id text NOT NULL,
  status text NOT NULL CHECK (status IN ('running', 'completed', 'failed', 'aborted', 'interrupted')),
  started_at bigint NOT NULL,
  ended_at bigint,
  usage text NOT NULL,
  error text
);
CREATE INDEX runs_running ON runs (started_at) WHERE status = 'running';
CREATE INDEX runs_by_session ON runs (session_key, started_at);
CREATE INDEX runs_by_parent ON runs (parent_run_id) WHERE parent_run_id IS NOT NULL;

CREATE TABLE inbound_events (
  channel text NOT NULL,
  account_id text NOT NULL,
  event_id text NOT NULL,
  seen_at bigint NOT NULL,
  PRIMARY KEY (channel, account_id, event_id)
);
CREATE INDEX inbound_events_by_age ON inbound_events (seen_at);

CREATE TABLE outbox (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  session_key text COLLATE "C" NOT NULL,
  run_id text COLLATE "C",
  kind text NOT NULL,
  payload text NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'in-flight', 'sent', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL,
  next_attempt_at bigint NOT NULL,
  last_error text,
  platform_message_ids text NOT NULL DEFAULT '[]'
);
CREATE INDEX outbox_unsent ON outbox (status, next_attempt_at, id) WHERE status IN ('pending', 'in-flight');
CREATE INDEX outbox_sent_by_age ON outbox (updated_at) WHERE status = 'sent';

CREATE TABLE pairing_requests (
  channel text NOT NULL,
  account_id text NOT NULL,
  code text COLLATE "C" NOT NULL,
  sender_id text NOT NULL,
  sender_name text NOT NULL,
  created_at bigint NOT NULL,
  expires_at bigint NOT NULL,
  PRIMARY KEY (channel, account_id, code)
);

CREATE TABLE paired_senders (
  channel text NOT NULL,
  account_id text NOT NULL,
  sender_id text NOT NULL,
  approved_at bigint NOT NULL,
  PRIMARY KEY (channel, account_id, sender_id)
);

-- Down Migration
-- None: a release never goes back down; restore from a backup instead.
