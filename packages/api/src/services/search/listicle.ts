import type { Db } from "@directory/db";
import { searchCategory } from "./category-search";
import { directoryCompletenessScore } from "./completeness";
import type { ListingSource } from "./listing";

/** A category+city pair rarely holds more; the cap keeps the in-memory sort bounded. */
const LISTICLE_CANDIDATES = 1_000;

export const LISTICLE_DISCLOSURE =
  "Ordered by directoryCompletenessScore (how complete each profile is), then by name. Not a paid placement: plan tier plays no part in this order.";

/**
 * Listings for a category and city ordered by the public completeness score, then name. The score
 * is computed from the profile, so the candidates are read and sorted here rather than in SQL.
 */
export async function listicle(db: Db, params: { category: string; city: string; limit: number }) {
  const result = await searchCategory(db, { category: params.category, city: params.city, limit: LISTICLE_CANDIDATES });
  const scored = result.businesses.map((business) => ({ business, score: directoryCompletenessScore(business) }));
  scored.sort((a, b) => b.score - a.score || a.business.name.localeCompare(b.business.name) || a.business.id.localeCompare(b.business.id));
  return { ...result, businesses: scored.slice(0, params.limit).map(({ business }): ListingSource => business) };
}
