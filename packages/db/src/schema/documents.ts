import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { categories } from "./categories";
import { cities } from "./cities";

/**
 * Text that mentions businesses (an AI assistant's answer to a buyer question, an article), kept
 * with its provenance like a claim. Mentions, the co-citation graph, citation checks and the
 * internal visibility score are all derived from this text (see packages/api/src/services/graph/).
 */
export const documents = pgTable(
  "documents",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** "ai_answer" (engine and query set) or "article". */
    kind: text("kind").notNull(),
    /** Where the text came from: a URL, or e.g. "demo:assistant-answers". */
    source: text("source").notNull(),
    /** The AI platform that answered, e.g. "chatgpt"; null for articles. */
    engine: text("engine"),
    /** The engine's model that answered, where known (citation checks record it); null for articles. */
    model: text("model"),
    /** The question the engine was asked; null for articles. */
    query: text("query"),
    fetchedAt: timestamp("fetched_at", { withTimezone: true }).notNull(),
    /** BCP 47 language tag of the text, e.g. "en". */
    language: text("language").notNull(),
    /** Context for mention extraction: names are looked up among this city's businesses. */
    cityId: integer("city_id").references(() => cities.id),
    /** Context for mention extraction: with no city, names are looked up in this category. */
    categorySlug: text("category_slug").references(() => categories.slug),
    body: text("body").notNull(),
    /**
     * The URLs the engine said it drew on (an ai_answer whose engine gives its sources; empty where
     * none were given), cleaned and capped where they are read (services/citations/cited-sources.ts).
     */
    sources: text("sources").array().notNull().default([]),
    /** SHA-256 of the document's fields: the same document ingested twice is stored once. */
    contentHash: text("content_hash").notNull().unique(),
    ingestedAt: timestamp("ingested_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check("documents_kind", sql`${t.kind} in ('ai_answer', 'article')`), index("documents_context_idx").on(t.cityId, t.categorySlug)],
);

export type Document = typeof documents.$inferSelect;
