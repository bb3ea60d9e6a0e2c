import { sql } from "drizzle-orm";
import { check, index, numeric, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
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
    /** ISO 4217 code; the CHECK keeps anything but three capital letters out, whoever writes. */
    currency: text("currency").notNull(),
    validUntil: timestamp("valid_until", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("offers_business_idx").on(t.businessId), check("offers_currency_iso4217", sql`${t.currency} ~ '^[A-Z]{3}$'`)],
);
