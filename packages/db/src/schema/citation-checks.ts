import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { businesses } from "./businesses";
import { documents } from "./documents";

/**
 * One check of whether an AI platform mentioned the business for a query: derived from an AI
 * answer in documents whose city and category are the business's (src/graph/derive.ts).
 */
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
    /** The answer this check was read from. */
    documentId: uuid("document_id").references(() => documents.id),
    /** 1-based place among the businesses the answer names; null when not mentioned. */
    position: integer("position"),
  },
  (t) => [
    index("citation_checks_business_idx").on(t.businessId, t.checkedAt),
    uniqueIndex("citation_checks_document_business_uq").on(t.documentId, t.businessId),
  ],
);
