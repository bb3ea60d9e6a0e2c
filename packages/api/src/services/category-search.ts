import { and, asc, count, desc, eq } from "drizzle-orm";
import { businesses, cities, type Category, type Db } from "@directory/db";
import { servableCondition } from "./active-business";
import { selectBusinessRecords, type BusinessRecord } from "./business-lookup";
import { RANKING_ORDER, resolveCategory, resolveCity } from "./search";

/**
 * A category across every city (city omitted: national or product listings), or within one city,
 * in ranking order. Unknown category or city: null, so the caller can say which.
 */
export async function searchCategory(db: Db, params: { category: string; city?: string; limit: number }) {
  const category = await resolveCategory(db, params.category);
  if (!category) return { category: null, city: null, businesses: [] as BusinessRecord[], unknown: "category" as const };
  const city = params.city ? await resolveCity(db, params.city) : null;
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
