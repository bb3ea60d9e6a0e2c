import { sql } from "drizzle-orm";
import { businesses, rowsOf, type Db } from "@directory/db";
import { servableCondition } from "../entities/servable";
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
 * on a server that is asked at least once a minute. The answer says when it was counted.
 * Names, slugs and synonyms come from the reference data (reference-data.ts, its own bound of 5 s).
 */
export const CATEGORY_COUNTS_MAX_AGE_MS = 60_000;
export const CATEGORY_COUNTS_HARD_MAX_AGE_MS = 5 * 60_000;

interface ListingCounts {
  bySlug: Map<string, number>;
  countedAt: number;
}

interface Holder {
  counts: ListingCounts | null;
  pending: Promise<ListingCounts> | null;
}

const holders = new WeakMap<Db, Holder>();

/** Servable businesses by category: the same rule as every public list (servable.ts). */
async function countListings(db: Db): Promise<ListingCounts> {
  const startedAt = Date.now();
  const result = await db.execute(sql`
    select ${businesses.categorySlug} as slug, count(*)::int as listings
    from ${businesses}
    where ${servableCondition()}
    group by ${businesses.categorySlug}`);
  const bySlug = new Map(rowsOf<{ slug: string; listings: number }>(result).map((row) => [row.slug, Number(row.listings)]));
  // The count sees the table as of its start: date it so, never later than it is.
  return { bySlug, countedAt: startedAt };
}

function recount(db: Db, holder: Holder): Promise<ListingCounts> {
  if (holder.pending) return holder.pending;
  const pending = countListings(db)
    .then((counts) => {
      holder.counts = counts;
      return counts;
    })
    .finally(() => {
      holder.pending = null;
    });
  holder.pending = pending;
  return pending;
}

/** The listing counts by category slug, within the staleness bound above. */
async function listingCounts(db: Db): Promise<ListingCounts> {
  let holder = holders.get(db);
  if (!holder) {
    holder = { counts: null, pending: null };
    holders.set(db, holder);
  }
  const { counts } = holder;
  const age = counts ? Date.now() - counts.countedAt : Number.POSITIVE_INFINITY;
  if (counts && age < CATEGORY_COUNTS_MAX_AGE_MS) return counts;
  const recounting = recount(db, holder);
  if (counts && age < CATEGORY_COUNTS_HARD_MAX_AGE_MS) {
    // A failed background recount keeps the old counts; the next request past the bound retries.
    recounting.catch(() => {});
    return counts;
  }
  return recounting;
}

/** The next request on this database recounts instead of serving held counts (for writers and tests). */
export function invalidateCategoryCounts(db: Db): void {
  const holder = holders.get(db);
  if (holder) holder.counts = null;
}

/** Every category with its slug, name, synonyms and number of servable listings, in slug order. */
export async function categoryCatalog(db: Db) {
  const [data, counts] = await Promise.all([referenceData(db), listingCounts(db)]);
  return {
    categories: data.categories.slice(0, CATEGORY_LIST_MAX).map((category) => ({
      slug: category.slug,
      name: category.name,
      synonyms: category.synonyms,
      listings: counts.bySlug.get(category.slug) ?? 0,
    })),
    total: data.categories.length,
    listingsCountedAt: new Date(counts.countedAt).toISOString(),
  };
}
