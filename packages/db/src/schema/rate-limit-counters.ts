import { index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/**
 * One row per bucket and window: "ip:203.0.113.7" per day, "key:<id>" per calendar month, and the
 * shorter abuse and lead windows. Incremented with a single conditional upsert, so every server
 * instance sharing the database enforces one exact limit together.
 */
export const rateLimitCounters = pgTable(
  "rate_limit_counters",
  {
    bucket: text("bucket").notNull(),
    windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
    hits: integer("hits").notNull(),
    /** When the window closes; rows past it are deleted by the periodic clean-up. */
    windowEnd: timestamp("window_end", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.bucket, t.windowStart] }), index("rate_limit_counters_window_end_idx").on(t.windowEnd)],
);
