import { sql } from "drizzle-orm";
import { check, index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { businesses } from "./businesses";
import { categories } from "./categories";

/**
 * Questions buyers ask. Owner-submitted rows belong to a business; template rows belong to a
 * category and apply to every business in it.
 */
export const buyerQuestions = pgTable(
  "buyer_questions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    businessId: uuid("business_id").references(() => businesses.id),
    categorySlug: text("category_slug").references(() => categories.slug),
    question: text("question").notNull(),
    answer: text("answer"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("buyer_questions_owner_xor_template", sql`(${t.businessId} is null) <> (${t.categorySlug} is null)`),
    index("buyer_questions_business_idx").on(t.businessId),
    index("buyer_questions_category_idx").on(t.categorySlug),
    // search_fold (migration 0034): accents folded as in business_search's document, so "hotel" finds "Hôtel".
    index("buyer_questions_text_idx").using("gin", sql`to_tsvector('simple', search_fold(${t.question} || ' ' || coalesce(${t.answer}, '')))`),
  ],
);
