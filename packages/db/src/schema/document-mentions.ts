import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, primaryKey, real, text, uuid } from "drizzle-orm/pg-core";
import { businesses } from "./businesses";
import { documents } from "./documents";

/** A business named in a document, as the extractor found it (one row per document and business). */
export const documentMentions = pgTable(
  "document_mentions",
  {
    documentId: uuid("document_id")
      .notNull()
      .references(() => documents.id),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businesses.id),
    /** UTF-16 offset of the first occurrence in the document's body. */
    offset: integer("offset").notNull(),
    length: integer("length").notNull(),
    /** 1-based rank among the businesses the document names, by first occurrence. */
    position: integer("position").notNull(),
    /** 0..1: how sure the extractor is that this name means this business. */
    confidence: real("confidence").notNull(),
    /** "name" (current name) or "former_name" (from claim or slug history). */
    matchedAs: text("matched_as").notNull(),
    /**
     * The business's city and category, copied by the triggers of migration 0012 (on insert here,
     * on a move or recategorisation there), so graph answers group mentions without reading the
     * wide businesses rows: at a million businesses those random reads cost a second an answer.
     */
    cityId: integer("city_id"),
    categorySlug: text("category_slug"),
  },
  (t) => [
    primaryKey({ columns: [t.documentId, t.businessId] }),
    index("document_mentions_business_idx").on(t.businessId, t.documentId),
    index("document_mentions_context_idx").on(t.cityId, t.categorySlug, t.documentId),
    index("document_mentions_category_idx").on(t.categorySlug, t.documentId),
    check("document_mentions_confidence_range", sql`${t.confidence} >= 0 and ${t.confidence} <= 1`),
  ],
);
