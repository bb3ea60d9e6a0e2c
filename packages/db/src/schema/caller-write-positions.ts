import { index, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Where in the primary's write-ahead log each caller's last write ended, kept only while read
 * replicas serve (DATABASE_REPLICA_URLS): a caller's reads go to a replica that has replayed past
 * it, so a key or a session reads its own writes on any app instance. The caller is a hash of the
 * key's id, the session cookie or the address (procedures/read-routing.ts); rows older than a
 * replica may lag are deleted by the periodic clean-up.
 */
export const callerWritePositions = pgTable(
  "caller_write_positions",
  {
    caller: text("caller").primaryKey(),
    /** pg_current_wal_insert_lsn() as text ("16/B374D848") after the write committed. */
    walPosition: text("wal_position").notNull(),
    writtenAt: timestamp("written_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("caller_write_positions_written_at_idx").on(t.writtenAt)],
);
