import { and, asc, count, desc, eq, sql } from "drizzle-orm";
import { businesses, cities, type Category, type Db } from "@directory/db";
import { servableCondition } from "./active-business";
import { selectBusinessRecords, type BusinessRecord } from "./business-lookup";
import { RANKING_ORDER, resolveCategory, resolveCity } from "./search";

function prepareSearch(db: Db, withCity: boolean) {
  return selectBusinessRecords(db)
    .where(and(eq(businesses.categorySlug, sql.placeholder("category")), withCity ? eq(businesses.cityId, sql.placeholder("cityId")) : undefined, servableCondition()))
    .orderBy(...RANKING_ORDER)
    .limit(sql.placeholder("limit"))
    .prepare(withCity ? "search_category_city" : "search_category");
}

type PreparedSearch = ReturnType<typeof prepareSearch>;
const preparedSearches = new WeakMap<Db, { inCity: PreparedSearch; national: PreparedSearch }>();

/** The hot query, built once per database handle: no per-request query building. */
function preparedSearchesOf(db: Db) {
  let prepared = preparedSearches.get(db);
  if (!prepared) {
    prepared = { inCity: prepareSearch(db, true), national: prepareSearch(db, false) };
    preparedSearches.set(db, prepared);
  }
  return prepared;
}

/**
 * The one ranked search: a category within one city, or across every city (city omitted: national
 * or product listings), active and unexpired businesses only, in ranking order. With a city the
 * order matches businesses_search_idx, so PostgreSQL reads only `limit` index entries and never
 * sorts. Category and city resolve from in-memory reference data, so once that is warm a search is
 * one round trip, a prepared statement. Unknown category or city: null, and `unknown` says which.
 */
export async function searchCategory(db: Db, params: { category: string; city?: string; limit: number }) {
  const [category, city] = await Promise.all([
    resolveCategory(db, params.category),
    params.city ? resolveCity(db, params.city) : Promise.resolve(null),
  ]);
  if (!category) return { category: null, city, businesses: [] as BusinessRecord[], unknown: "category" as const };
  if (params.city && !city) return { category, city: null, businesses: [] as BusinessRecord[], unknown: "city" as const };
  const prepared = preparedSearchesOf(db);
  const records: BusinessRecord[] = city
    ? await prepared.inCity.execute({ category: category.slug, cityId: city.id, limit: params.limit })
    : await prepared.national.execute({ category: category.slug, limit: params.limit });
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
