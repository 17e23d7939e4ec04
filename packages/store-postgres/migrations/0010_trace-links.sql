-- Chorus session store, schema version 10: trace links (issue #21) — the W3C traceparent of a run's span and of an
-- outbox entry's producer. A run resumed after a restart links its span to the interrupted one's; a send retried by
-- the poll continues the trace of the turn that wrote it. Both are written with the row that is written anyway.
-- (Version 9 belongs to another change; the numbers only need to grow.)

-- Up Migration

ALTER TABLE runs ADD COLUMN traceparent text;
ALTER TABLE outbox ADD COLUMN traceparent text;
