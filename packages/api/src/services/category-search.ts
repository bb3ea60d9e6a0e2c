import { and, asc, count, desc, eq } from "drizzle-orm";
import { businesses, cities, type Category, type Db } from "@directory/db";
import { servableCondition } from "./active-business";
import { selectBusinessRecords, type BusinessRecord } from "./business-lookup";
import { RANKING_ORDER, resolveCategory, resolveCity } from "./search";

/**
 * The one ranked search: a category within one city, or across every city (city omitted: national
 * or product listings), active and unexpired businesses only, in ranking order. With a city the
 * order matches businesses_search_idx, so PostgreSQL reads only `limit` index entries and never
 * sorts. Unknown category or city: null, and `unknown` says which, so the caller can say so.
 */
export async function searchCategory(db: Db, params: { category: string; city?: string; limit: number }) {
  const [category, city] = await Promise.all([
    resolveCategory(db, params.category),
    params.city ? resolveCity(db, params.city) : Promise.resolve(null),
  ]);
  if (!category) return { category: null, city, businesses: [] as BusinessRecord[], unknown: "category" as const };
  if (params.city && !city) return { category, city: null, businesses: [] as BusinessRecord[], unknown: "city" as const };
  const records = await selectBusinessRecords(db)
    .where(and(eq(businesses.categorySlug, category.slug), city ? eq(businesses.cityId, city.id) : undefined, servableCondition()))
    .orderBy(...RANKING_ORDER)
    .limit(params.limit);
  return { category, city, businesses: records, unknown: null };
}

/** Cities with at least one servable business in a category, most listings first. */
export async function citiesWithListings(db: Db, category: Category, limit: number) {
  const listings = count(businesses.id);
  return db
    .select({ name: cities.name, slug: cities.slug, country: cities.countryCode, region: cities.adminRegion, listings })
    .from(businesses)
    .innerJoin(cities, eq(cities.id, businesses.cityId))
    .where(and(eq(businesses.categorySlug, category.slug), servableCondition()))
    .groupBy(cities.id)
    .orderBy(desc(listings), asc(cities.name))
    .limit(limit);
}
