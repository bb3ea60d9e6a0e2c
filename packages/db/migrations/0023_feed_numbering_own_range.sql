-- feed_changes_sequence() looked for a transaction's unnumbered changes in the whole table (seq IS
-- NULL). Every numbered change leaves a dead unnumbered version behind until a vacuum, and while
-- any transaction holds an old snapshot (an export's REPEATABLE READ read lasts minutes under a
-- slow reader) none can be skipped: every commit scanned all of them (400 ms a commit after
-- 500,000 changes). Deferred triggers fire in the order their rows were inserted, so the first
-- firing holds the transaction's lowest id: the search starts there, and only rows inserted since
-- (this transaction's and a few concurrent ones') are read.
CREATE OR REPLACE FUNCTION feed_changes_sequence() RETURNS trigger LANGUAGE plpgsql
SET enable_bitmapscan = off SET jit = off AS $$
DECLARE
  pending bigint;
  top bigint;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM feed_changes WHERE id = NEW.id AND seq IS NULL) THEN
    RETURN NULL;
  END IF;
  -- Unnumbered rows this transaction can see are its own: every committed one was numbered at its commit.
  SELECT count(*) INTO pending FROM feed_changes WHERE id >= NEW.id AND seq IS NULL;
  UPDATE feed_position SET last = last + pending WHERE id = 1 RETURNING last INTO top;
  UPDATE feed_changes c SET seq = top - pending + n.rn
  FROM (SELECT id, row_number() OVER (ORDER BY id) AS rn FROM feed_changes WHERE id >= NEW.id AND seq IS NULL) n
  WHERE c.id = n.id;
  RETURN NULL;
END
$$;
