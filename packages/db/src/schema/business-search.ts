import { index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { businesses } from "./businesses";
import { businessStatus, planTier } from "./enums";
import { tsvector } from "./tsvector";

/**
 * The narrow table keyword search ranks from: one row per business with only what matching,
 * filtering and ordering need, so ranking thousands of matches reads a few hundred pages instead
 * of the wide businesses rows. Written only by the trigger of migration 0011 (sync_business_search),
 * in the same statement as the business row, so the two never disagree.
 *
 * document: the descriptive fields weighted by where a word appears (name A, services and keywords
 * B, USP and tagline C, description D), plus one lexeme naming the city ("in city <id>"; it holds
 * spaces, which no query word can), so a city-bound search is one GIN intersection, and one naming
 * the listing's country ("in country LI", migration 0034) for a country-bound search. Its words are
 * folded by search_fold (accents removed, migration 0034), and so are a query's (keyword-ranking.ts).
 */
export const businessSearch = pgTable(
  "business_search",
  {
    businessId: uuid("business_id")
      .primaryKey()
      .references(() => businesses.id, { onDelete: "cascade" }),
    cityId: integer("city_id").notNull(),
    planTier: planTier("plan_tier").notNull(),
    status: businessStatus("status").notNull(),
    subscriptionExpiresAt: timestamp("subscription_expires_at", { withTimezone: true }),
    name: text("name").notNull(),
    document: tsvector("document").notNull(),
  },
  (t) => [index("business_search_document_idx").using("gin", t.document)],
);

/** The lexeme that puts a business in its city's posting list; the trigger of migration 0011 writes the same. */
export function cityLexeme(cityId: number): string {
  return `in city ${cityId}`;
}

/** The lexeme that puts a business in its country's posting list (ISO 3166-1 alpha-2, upper case, as listings carry it); migration 0034. */
export function countryLexeme(countryCode: string): string {
  return `in country ${countryCode}`;
}
