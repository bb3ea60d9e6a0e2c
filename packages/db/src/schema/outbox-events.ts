import { sql } from "drizzle-orm";
import { bigserial, index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { businesses } from "./businesses";

/**
 * Events written in the same transaction as the change they describe; webhook delivery reads
 * from here, so a crash between commit and delivery loses nothing.
 */
export const outboxEvents = pgTable(
  "outbox_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    /** e.g. "entity.updated". */
    eventType: text("event_type").notNull(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businesses.id),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** Set once every subscriber has been handed the event. */
    dispatchedAt: timestamp("dispatched_at", { withTimezone: true }),
  },
  (t) => [
    index("outbox_events_pending_idx")
      .on(t.id)
      .where(sql`${t.dispatchedAt} is null`),
    index("outbox_events_business_idx").on(t.businessId, t.id),
  ],
);
