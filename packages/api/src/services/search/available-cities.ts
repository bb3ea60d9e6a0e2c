import { and, asc, countDistinct, count, desc, eq, sql } from "drizzle-orm";
import { businesses, cities, type Category, type Db } from "@directory/db";
import { servableCondition } from "../entities/servable";
import { decodeOffsetCursor, listingFingerprint, nextOffsetCursor } from "../shared/opaque-cursor";
import { requireResolved, resolveCategory, resolvedCategory } from "./resolve";

/** How deep the cities of a category page: past every city of the shipped gazetteer (the only source of city rows). */
export const AVAILABLE_CITIES_MAX = 200_000;

/**
 * Cities with at least one servable business in a category, most listings first, a page at a time;
 * with `country` (upper-case ISO 3166-1 alpha-2), only that country's.
 */
export async function availableCities(db: Db, params: { category: string; country?: string | undefined; limit: number; cursor?: string | undefined }) {
  const category = await requireResolved(db, await resolveCategory(db, params.category), "category", params.category);
  const country = params.country ?? null;
  // Without a country the fingerprint is what it was before country existed: its cursors stay valid.
  const listing = { fingerprint: listingFingerprint(["cities", category.slug, ...(country === null ? [] : [country])]), maxOffset: AVAILABLE_CITIES_MAX };
  const offset = params.cursor ? decodeOffsetCursor(params.cursor, listing) : 0;
  const rows = await citiesWithListings(db, { category, country, limit: params.limit, offset });
  const cities = rows.map(({ totalMatches: _, ...city }) => city);
  // Past the last city no row carries the count: counted on its own then (the offset is the caller's to edit).
  const totalMatches = rows[0]?.totalMatches ?? (offset === 0 ? 0 : await cityCount(db, category, country));
  return {
    category: resolvedCategory(category),
    cities,
    total: cities.length,
    totalMatches,
    nextCursor: nextOffsetCursor({ offset, returned: cities.length, total: totalMatches }, listing),
  };
}

const inCategory = (category: Category, country: string | null) =>
  and(eq(businesses.categorySlug, category.slug), country === null ? undefined : eq(businesses.country, country), servableCondition());

/** One page of the cities, each row also carrying the number of all cities (counted over the groups, before the limit). */
async function citiesWithListings(db: Db, params: { category: Category; country: string | null; limit: number; offset: number }) {
  const { category, country, limit, offset } = params;
  const listings = count(businesses.id);
  return db
    .select({
      name: cities.name,
      slug: cities.slug,
      country: cities.countryCode,
      region: cities.adminRegion,
      listings,
      totalMatches: sql<number>`(count(*) over ())::int`,
    })
    .from(businesses)
    .innerJoin(cities, eq(cities.id, businesses.cityId))
    .where(inCategory(category, country))
    .groupBy(cities.id)
    .orderBy(desc(listings), asc(cities.name), asc(cities.id))
    .limit(limit)
    .offset(offset);
}

/** The number of cities with a servable business in the category. */
async function cityCount(db: Db, category: Category, country: string | null): Promise<number> {
  const [row] = await db
    .select({ cities: countDistinct(businesses.cityId) })
    .from(businesses)
    .where(inCategory(category, country));
  return Number(row?.cities ?? 0);
}
