import { asc, desc } from "drizzle-orm";
import { businesses, type Category, type City, type Db } from "@directory/db";
import { findCategory, findCity, referenceData } from "./reference-data";

/** The ranking order of every search, matching businesses_search_idx: tier, internal score, name. */
export const RANKING_ORDER = [asc(businesses.planTier), desc(businesses.visibilityScore), asc(businesses.name), asc(businesses.id)];

/** Disclosed with every search result: the order is paid tier first, and says so. */
export const RANKING_DISCLOSURE =
  "Ordered by plan tier (premium, pro, basic, free), then by an internal visibility score within a tier, then by name. " +
  "Paid tiers are placed first; the directoryCompletenessScore shown is not what orders results.";

/** Accepts plurals, synonyms, slugs and any case; resolved from the in-memory reference data. */
export async function resolveCategory(db: Db, input: string): Promise<Category | null> {
  return findCategory(await referenceData(db), input);
}

/** A name or alias, with or without accents, optionally ", CC"; resolved from the in-memory reference data. */
export async function resolveCity(db: Db, input: string): Promise<City | null> {
  return findCity(await referenceData(db), input);
}
