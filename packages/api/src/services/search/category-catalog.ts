import { sql } from "drizzle-orm";
import { businesses, rowsOf, type Db } from "@directory/db";
import { servableCondition } from "../entities/servable";
import { heldPerDatabase } from "../shared/held-per-database";
import { referenceData } from "./reference-data";

/**
 * The bound of the category list: the directory has ~71 categories; past this many, the list stops
 * here in slug order and `total` still counts them all.
 */
export const CATEGORY_LIST_MAX = 500;

/**
 * Staleness bound of the listing counts. Counting every servable business by category reads the
 * whole active part of the table (a parallel sequential scan: ~0.4 s over a synthetic 1M-row table
 * on PostgreSQL 15, 2 busy cores), far too slow per request, so each process holds the counts per
 * database handle:
 * - younger than CATEGORY_COUNTS_MAX_AGE_MS: served as they are;
 * - older, but younger than CATEGORY_COUNTS_HARD_MAX_AGE_MS: served while one recount runs in the
 *   background (no request waits for it);
 * - older still, or never counted: the request waits for the recount.
 * So a count is at most CATEGORY_COUNTS_HARD_MAX_AGE_MS old, and at most MAX_AGE plus one recount
 * on a server that is asked at least once a minute (held-per-database.ts). The answer says when it
 * was counted.
 * Names, slugs and synonyms come from the reference data (reference-data.ts, its own bound of 5 s).
 */
export const CATEGORY_COUNTS_MAX_AGE_MS = 60_000;
export const CATEGORY_COUNTS_HARD_MAX_AGE_MS = 5 * 60_000;

/** Servable businesses by category: the same rule as every public list (servable.ts). */
async function countListings(db: Db): Promise<Map<string, number>> {
  const result = await db.execute(sql`
    select ${businesses.categorySlug} as slug, count(*)::int as listings
    from ${businesses}
    where ${servableCondition()}
    group by ${businesses.categorySlug}`);
  return new Map(rowsOf<{ slug: string; listings: number }>(result).map((row) => [row.slug, Number(row.listings)]));
}

/** The listing counts by category slug, dated by the start of their count, within the staleness bound above. */
const listingCounts = heldPerDatabase(countListings, { maxAgeMs: CATEGORY_COUNTS_MAX_AGE_MS, hardMaxAgeMs: CATEGORY_COUNTS_HARD_MAX_AGE_MS });

/** The next request on this database recounts instead of serving held counts (for writers and tests). */
export function invalidateCategoryCounts(db: Db): void {
  listingCounts.invalidate(db);
}

/** Every category with its slug, name, synonyms and number of servable listings, in slug order. */
export async function categoryCatalog(db: Db) {
  const [data, counts] = await Promise.all([referenceData(db), listingCounts.get(db)]);
  return {
    categories: data.categories.slice(0, CATEGORY_LIST_MAX).map((category) => ({
      slug: category.slug,
      name: category.name,
      synonyms: category.synonyms,
      listings: counts.value.get(category.slug) ?? 0,
    })),
    total: data.categories.length,
    listingsCountedAt: new Date(counts.takenAt).toISOString(),
  };
}
