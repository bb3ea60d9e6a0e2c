import { boolean, index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { businesses } from "./businesses";

/** One check of whether an AI platform mentioned the business for a query. */
export const citationChecks = pgTable(
  "citation_checks",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businesses.id),
    /** The AI platform asked, e.g. "chatgpt", "perplexity", "gemini". */
    engine: text("engine").notNull(),
    query: text("query").notNull(),
    mentioned: boolean("mentioned").notNull(),
    checkedAt: timestamp("checked_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("citation_checks_business_idx").on(t.businessId, t.checkedAt)],
);
