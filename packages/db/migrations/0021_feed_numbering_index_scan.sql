-- feed_changes_sequence() finds a transaction's unnumbered changes by seq IS NULL. Every change is
-- inserted unnumbered and numbered once at commit, so until a vacuum each numbered change leaves a
-- dead unnumbered version behind in feed_changes_unsequenced_idx and feed_changes_seq_idx. The
-- planner read them with a bitmap scan, which visits every dead version again at every commit
-- (250 ms a commit after 100,000 changes, with autovacuum behind); a plain index scan marks them
-- dead the first time (kill_prior_tuple) and later commits skip them (1.5 ms). JIT only slowed the
-- small update.
ALTER FUNCTION feed_changes_sequence() SET enable_bitmapscan = off;--> statement-breakpoint
ALTER FUNCTION feed_changes_sequence() SET jit = off;
