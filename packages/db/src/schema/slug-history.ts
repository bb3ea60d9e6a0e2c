import { pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { businesses } from "./businesses";

/** Slugs a business used to have; they keep resolving to it after a slug change. */
export const slugHistory = pgTable("slug_history", {
  slug: text("slug").primaryKey(),
  businessId: uuid("business_id")
    .notNull()
    .references(() => businesses.id),
  retiredAt: timestamp("retired_at", { withTimezone: true }).notNull().defaultNow(),
});
