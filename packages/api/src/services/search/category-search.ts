import { and, asc, count, desc, eq, sql, type SQL } from "drizzle-orm";
import { businesses, cities, preparedQuery, type Category, type Db } from "@directory/db";
import { servableCondition } from "../entities/servable";
import type { ListingSource } from "./listing";
import { SELECT_LISTINGS } from "./listing-query";
import { RANKING_ORDER, resolveCategory, resolveCity } from "./search";

/**
 * The hot query of a category search, with placeholders (category, cityId when withCity, limit).
 * Exported so the bench's limit server runs the very same SQL text.
 */
export function categorySearchQuery(withCity: boolean): SQL {
  const inCity = withCity ? eq(businesses.cityId, sql.placeholder("cityId")) : undefined;
  return sql`${SELECT_LISTINGS}
    where ${and(eq(businesses.categorySlug, sql.placeholder("category")), inCity, servableCondition())}
    order by ${sql.join(RANKING_ORDER, sql`, `)}
    limit ${sql.placeholder("limit")}`;
}

/** The hot queries, built once: no per-request query building or row mapping. */
const searchInCity = preparedQuery<ListingSource>(categorySearchQuery(true));
const searchNationally = preparedQuery<ListingSource>(categorySearchQuery(false));

/**
 * The one ranked search: a category within one city, or across every city (city omitted: national
 * or product listings), active and unexpired businesses only, in ranking order. With a city the
 * order matches businesses_search_idx, so PostgreSQL reads only `limit` index entries and never
 * sorts. Category and city resolve from in-memory reference data, so once that is warm a search is
 * one round trip, a prepared statement that reads the listing's columns only. Unknown category or
 * city: null, and `unknown` says which.
 */
export async function searchCategory(db: Db, params: { category: string; city?: string; limit: number }) {
  const [category, city] = await Promise.all([
    resolveCategory(db, params.category),
    params.city ? resolveCity(db, params.city) : Promise.resolve(null),
  ]);
  if (!category) return { category: null, city, businesses: [] as ListingSource[], unknown: "category" as const };
  if (params.city && !city) return { category, city: null, businesses: [] as ListingSource[], unknown: "city" as const };
  const records = city
    ? await searchInCity(db, { category: category.slug, cityId: city.id, limit: params.limit })
    : await searchNationally(db, { category: category.slug, limit: params.limit });
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
