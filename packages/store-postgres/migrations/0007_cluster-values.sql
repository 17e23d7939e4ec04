-- Chorus session store, schema version 7: values every instance of a cluster must share, agreed on once.
-- (Versions 4–6 are other changes; the numbers only need to grow.) The first instance to ask for a name stores its
-- proposal; every instance after it reads that one (e.g. the WebChat server key, so a browser's cookie means the same
-- person on every instance).

-- Up Migration

CREATE TABLE cluster_values (
  name text COLLATE "C" PRIMARY KEY,
  value text NOT NULL,
  created_at bigint NOT NULL
);

-- Down Migration
-- None: a release never goes back down; restore from a backup instead.
