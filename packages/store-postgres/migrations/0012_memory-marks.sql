-- Chorus session store, schema version 12: long-term memory marks (issue #30). memory_mark: who said a transcript
-- message (their trust tier) or 'off' (said while `/memory off` held in the session); NULL for messages no person said
-- in the chat, and for older rows, which end-of-session extraction then never reads. memory_extracted_seq: how far the
-- session's extraction pass has read, so a restart or a takeover neither re-reads nor widens what it may read.
-- (Number 0011 is left to another change; the numbers only need to grow.)

-- Up Migration

ALTER TABLE transcript_messages ADD COLUMN memory_mark text;
ALTER TABLE sessions ADD COLUMN memory_extracted_seq bigint NOT NULL DEFAULT 0;
