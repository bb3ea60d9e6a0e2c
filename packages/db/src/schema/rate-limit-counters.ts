import { index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/**
 * One row per bucket and window: "anon:203.0.113.7" per day, "key:<id>" per calendar month.
 * Incremented with a single conditional upsert, so every server instance sharing the database
 * enforces one exact limit together.
 */
export const rateLimitCounters = pgTable(
  "rate_limit_counters",
  {
    bucket: text("bucket").notNull(),
    windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
    hits: integer("hits").notNull(),
  },
  (t) => [primaryKey({ columns: [t.bucket, t.windowStart] }), index("rate_limit_counters_window_idx").on(t.windowStart)],
);
