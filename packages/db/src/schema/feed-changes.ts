import { sql } from "drizzle-orm";
import { bigint, bigserial, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { businesses } from "./businesses";

/**
 * The partner feed as partners last saw it: one row per feed-visible business, holding its
 * schema.org JSON-LD as ready-to-serve text (the public base URL left as a placeholder). Written in
 * the transaction that changes the business; a row exists exactly while the change feed's last
 * entry for the business is an upsert, so the export reads this table alone.
 */
export const feedDocuments = pgTable("feed_documents", {
  businessId: uuid("business_id")
    .primaryKey()
    .references(() => businesses.id),
  document: text("document").notNull(),
  changedAt: timestamp("changed_at", { withTimezone: true }).notNull(),
});

/**
 * The change feed: every upsert and remove, never compacted. `id` is insertion order; `seq`, the
 * public position, is given at commit by a deferred trigger that takes feed_position's row lock,
 * so positions follow commit order (a reader that saw seq n never later finds a new seq below n).
 */
export const feedChanges = pgTable(
  "feed_changes",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    seq: bigint("seq", { mode: "number" }),
    businessId: uuid("business_id").notNull(),
    /** upsert | remove */
    action: text("action").notNull(),
    /** For a remove: decommissioned, subscription_expired, no_longer_verified, removed_from_source, merged, closed. */
    reason: text("reason"),
    mergedInto: uuid("merged_into"),
    /** For an upsert: the document as feed_documents held it then. */
    document: text("document"),
    changedAt: timestamp("changed_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex("feed_changes_seq_idx").on(t.seq),
    index("feed_changes_unsequenced_idx")
      .on(t.id)
      .where(sql`${t.seq} is null`),
  ],
);

/** One row: the last position given, and the last pruned (older positions answer 410). */
export const feedPosition = pgTable("feed_position", {
  id: integer("id").primaryKey(),
  last: bigint("last", { mode: "number" }).notNull(),
  prunedThrough: bigint("pruned_through", { mode: "number" }).notNull(),
});
