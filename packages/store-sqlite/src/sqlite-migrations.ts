/** One step of the SQLite schema: applied once, in order, inside the start-up transaction. */
export interface SqliteMigration {
  /** The schema version after this step; versions are 1, 2, 3… without gaps. */
  readonly version: number;
  readonly description: string;
  readonly sql: string;
}

/**
 * The schema, as migrations. Contract: never edit a released step; add a new one.
 * Times are epoch milliseconds; JSON columns hold the exact text the store wrote.
 */
export const SQLITE_MIGRATIONS: readonly SqliteMigration[] = [
  {
    version: 1,
    description: "sessions, transcripts, runs, inbound events, outbox, pairing requests and paired senders",
    sql: `
      CREATE TABLE sessions (
        key TEXT PRIMARY KEY,
        agent_id TEXT NOT NULL,
        channel TEXT NOT NULL,
        account_id TEXT NOT NULL,
        chat_id TEXT NOT NULL,
        title TEXT,
        model_override TEXT,
        queue_mode_override TEXT,
        settings TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        last_seq INTEGER NOT NULL DEFAULT 0,
        transcript_start_seq INTEGER NOT NULL DEFAULT 1
      ) WITHOUT ROWID;
      CREATE INDEX sessions_by_agent ON sessions (agent_id, updated_at);

      CREATE TABLE transcript_messages (
        session_key TEXT NOT NULL REFERENCES sessions (key) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        message TEXT NOT NULL,
        PRIMARY KEY (session_key, seq)
      );

      CREATE TABLE runs (
        id TEXT PRIMARY KEY,
        session_key TEXT NOT NULL,
        parent_run_id TEXT,
        depth INTEGER NOT NULL,
        agent_id TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('running', 'completed', 'failed', 'aborted', 'interrupted')),
        started_at INTEGER NOT NULL,
        ended_at INTEGER,
        usage TEXT NOT NULL,
        error TEXT
      ) WITHOUT ROWID;
      CREATE INDEX runs_by_status ON runs (status, started_at);
      CREATE INDEX runs_by_session ON runs (session_key, started_at);
      CREATE INDEX runs_by_parent ON runs (parent_run_id);

      CREATE TABLE inbound_events (
        channel TEXT NOT NULL,
        account_id TEXT NOT NULL,
        event_id TEXT NOT NULL,
        seen_at INTEGER NOT NULL,
        PRIMARY KEY (channel, account_id, event_id)
      ) WITHOUT ROWID;
      CREATE INDEX inbound_events_by_age ON inbound_events (seen_at);

      CREATE TABLE outbox (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        session_key TEXT NOT NULL,
        run_id TEXT,
        kind TEXT NOT NULL,
        payload TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pending', 'in-flight', 'sent', 'failed')),
        attempts INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        next_attempt_at INTEGER NOT NULL,
        last_error TEXT,
        platform_message_ids TEXT NOT NULL DEFAULT '[]'
      );
      CREATE INDEX outbox_by_status ON outbox (status, next_attempt_at, id);

      CREATE TABLE pairing_requests (
        channel TEXT NOT NULL,
        account_id TEXT NOT NULL,
        code TEXT NOT NULL,
        sender_id TEXT NOT NULL,
        sender_name TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL,
        PRIMARY KEY (channel, account_id, code)
      ) WITHOUT ROWID;

      CREATE TABLE paired_senders (
        channel TEXT NOT NULL,
        account_id TEXT NOT NULL,
        sender_id TEXT NOT NULL,
        approved_at INTEGER NOT NULL,
        PRIMARY KEY (channel, account_id, sender_id)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 2,
    description:
      "cheaper hot writes: a WITHOUT ROWID transcript, partial indexes for live runs and unsent outbox entries",
    // Every message writes the transcript, a run and outbox entries; each index a write must move costs a page in
    // the commit. Indexes now hold only what their queries look for (running runs, unsent entries, sub-agent runs),
    // the session index no longer moves on every message, and the transcript is one B-tree instead of two.
    sql: `
      DROP INDEX sessions_by_agent;
      CREATE INDEX sessions_by_agent ON sessions (agent_id);

      DROP INDEX runs_by_status;
      CREATE INDEX runs_running ON runs (started_at) WHERE status = 'running';
      DROP INDEX runs_by_parent;
      CREATE INDEX runs_by_parent ON runs (parent_run_id) WHERE parent_run_id IS NOT NULL;

      DROP INDEX outbox_by_status;
      CREATE INDEX outbox_unsent ON outbox (status, next_attempt_at, id)
        WHERE status = 'pending' OR status = 'in-flight';

      CREATE TABLE transcript_messages_v2 (
        session_key TEXT NOT NULL REFERENCES sessions (key) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        message TEXT NOT NULL,
        PRIMARY KEY (session_key, seq)
      ) WITHOUT ROWID;
      INSERT INTO transcript_messages_v2 (session_key, seq, message)
        SELECT session_key, seq, message FROM transcript_messages;
      DROP TABLE transcript_messages;
      ALTER TABLE transcript_messages_v2 RENAME TO transcript_messages;
    `,
  },
  {
    version: 3,
    description: "which inbound user messages have been answered, to tell their chats after a crash",
    // Kept in the session row that every append already updates: no extra statement or index on the message path.
    sql: `
      ALTER TABLE sessions ADD COLUMN last_inbound_seq INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE sessions ADD COLUMN answered_seq INTEGER NOT NULL DEFAULT 0;
    `,
  },
  {
    version: 4,
    description: "sent outbox entries by age, so that housekeeping prunes them in short steps",
    // Without it a prune step scans every newer entry to find the old sent ones. Marking an entry sent now also writes
    // this index: an append at its right edge, as times only grow.
    sql: `
      CREATE INDEX outbox_sent_by_age ON outbox (updated_at) WHERE status = 'sent';
    `,
  },
  {
    version: 5,
    description: "schedules (/schedule): what runs when, kept across restarts",
    sql: `
      CREATE TABLE schedules (
        id TEXT PRIMARY KEY,
        status TEXT NOT NULL CHECK (status IN ('active', 'stopped', 'done')),
        next_run_at INTEGER,
        data TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX schedules_by_age ON schedules (created_at, id);
    `,
  },
  {
    version: 6,
    description: "the spend ledger: model use per agent, user and goal per UTC day, and the budgets' reservations",
    // A row per (kind, subject, period): an agent's, user's or goal's spend on one UTC day, or a goal's or schedule's
    // whole life ('total'); reserved_* are the holds of calls under way, each listed in spend_holds.
    sql: `
      CREATE TABLE spend_ledger (
        kind TEXT NOT NULL CHECK (kind IN ('agent', 'user', 'goal', 'schedule')),
        subject TEXT NOT NULL,
        period TEXT NOT NULL,
        tokens INTEGER NOT NULL DEFAULT 0,
        cost REAL NOT NULL DEFAULT 0,
        reserved_tokens INTEGER NOT NULL DEFAULT 0,
        reserved_cost REAL NOT NULL DEFAULT 0,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (kind, subject, period)
      ) WITHOUT ROWID;

      CREATE TABLE spend_holds (
        id TEXT NOT NULL,
        kind TEXT NOT NULL,
        subject TEXT NOT NULL,
        period TEXT NOT NULL,
        tokens INTEGER NOT NULL,
        cost REAL NOT NULL,
        held_until INTEGER NOT NULL,
        PRIMARY KEY (id, kind, subject, period)
      ) WITHOUT ROWID;
      CREATE INDEX spend_holds_by_row ON spend_holds (kind, subject, period, held_until);
    `,
  },
  {
    version: 7,
    description: "trace links: the W3C traceparent of a run's span and of an outbox entry's producer",
    // A resumed run links its span to the interrupted one's; a send retried by the poll continues its turn's trace.
    // Written with the row that is written anyway (the run's first commit, the entry's insert): no extra statement.
    sql: `
      ALTER TABLE runs ADD COLUMN traceparent TEXT;
      ALTER TABLE outbox ADD COLUMN traceparent TEXT;
    `,
  },
  {
    version: 8,
    description: "a sub-agent run's spawn settings (label, time limit, the spawning run's trust tier)",
    // JSON; NULL for root runs and runs stored before. Kept so that a run again (its instance stopped) runs as spawned.
    sql: `
      ALTER TABLE runs ADD COLUMN spawn TEXT;
    `,
  },
  {
    version: 9,
    description: "long-term memory marks: who said each message (and whether memory was on), how far extraction read",
    // memory_mark: the sender's trust tier or 'off', NULL for messages no person said in the chat (and older rows, which
    // extraction then never reads). memory_extracted_seq: the end-of-session pass's progress, so a restart or a
    // takeover neither re-reads nor widens what it may read.
    sql: `
      ALTER TABLE transcript_messages ADD COLUMN memory_mark TEXT;
      ALTER TABLE sessions ADD COLUMN memory_extracted_seq INTEGER NOT NULL DEFAULT 0;
    `,
  },
  {
    version: 10,
    description: "the spend ledger books each agent's spend per kind of call (turn, sub-agent, TACO, compaction…)",
    // Rows of kind 'purpose' (subject '<agent>:<kind of call>'): a breakdown for /usage, never held against. SQLite
    // cannot change a CHECK in place, so the table is copied into one that allows the new kind.
    // The CREATE TABLE repeats version 6's on purpose: each step is a frozen snapshot of the schema at its version, so
    // a shared builder would let a later change rewrite a released step (and this step's INSERT … SELECT column list).
    sql: `
      CREATE TABLE spend_ledger_next (
        kind TEXT NOT NULL CHECK (kind IN ('agent', 'user', 'goal', 'schedule', 'purpose')),
        subject TEXT NOT NULL,
        period TEXT NOT NULL,
        tokens INTEGER NOT NULL DEFAULT 0,
        cost REAL NOT NULL DEFAULT 0,
        reserved_tokens INTEGER NOT NULL DEFAULT 0,
        reserved_cost REAL NOT NULL DEFAULT 0,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (kind, subject, period)
      ) WITHOUT ROWID;
      INSERT INTO spend_ledger_next
        SELECT kind, subject, period, tokens, cost, reserved_tokens, reserved_cost, updated_at FROM spend_ledger;
      DROP TABLE spend_ledger;
      ALTER TABLE spend_ledger_next RENAME TO spend_ledger;
    `,
  },
];

/** The newest schema version this code writes. */
export const SQLITE_SCHEMA_VERSION: number = SQLITE_MIGRATIONS.at(-1)?.version ?? 0;
