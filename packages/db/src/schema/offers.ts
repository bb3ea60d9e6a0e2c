import { index, numeric, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { businesses } from "./businesses";

/** A product or service a business publishes with its price. */
export const offers = pgTable(
  "offers",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businesses.id),
    title: text("title").notNull(),
    description: text("description"),
    /** Decimal string to keep money exact. */
    price: numeric("price", { precision: 12, scale: 2 }).notNull(),
    /** ISO 4217. */
    currency: text("currency").notNull(),
    validUntil: timestamp("valid_until", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("offers_business_idx").on(t.businessId)],
);
