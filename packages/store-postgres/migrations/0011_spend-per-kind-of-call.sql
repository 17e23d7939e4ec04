-- Chorus session store, schema version 11: the spend ledger books each agent's spend per kind of call (issue #29):
-- rows of kind 'purpose' (subject '<agent>:<kind of call>', e.g. 'main:taco') are a breakdown for /usage, never held
-- against a budget.

-- Up Migration

ALTER TABLE spend_ledger DROP CONSTRAINT spend_ledger_kind_check;
ALTER TABLE spend_ledger ADD CONSTRAINT spend_ledger_kind_check
  CHECK (kind IN ('agent', 'user', 'goal', 'schedule', 'purpose'));
