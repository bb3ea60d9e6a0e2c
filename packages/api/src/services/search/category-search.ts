import { and, asc, count, desc, eq, sql, type SQL } from "drizzle-orm";
import { businesses, cities, preparedQuery, type Category, type Db } from "@directory/db";
import { servableCondition } from "../entities/servable";
import { directoryCompletenessScore, SELECT_LISTINGS, toListing, type ListingSource } from "./listing";
import { LISTICLE_DISCLOSURE, RANKING_DISCLOSURE } from "./disclosures";
import { RANKING_ORDER } from "./ranking";
import { requireResolved, resolveCategory, resolveCity, resolvedCategory, resolvedCity } from "./resolve";

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
  const [category, city] = await Promise.all([resolveCategory(db, params.category), params.city ? resolveCity(db, params.city) : Promise.resolve(null)]);
  if (!category) return { category: null, city, businesses: [] as ListingSource[], unknown: "category" as const };
  if (params.city && !city) return { category, city: null, businesses: [] as ListingSource[], unknown: "city" as const };
  const records = city
    ? await searchInCity(db, { category: category.slug, cityId: city.id, limit: params.limit })
    : await searchNationally(db, { category: category.slug, limit: params.limit });
  return { category, city, businesses: records, unknown: null };
}

export interface RankedListingsParams {
  category: string;
  /** Omitted: across every city (national or product listings). */
  city?: string;
  limit: number;
  baseUrl: string;
}

/** searchCategory as the agent-facing procedures answer it: 404 naming an unknown category or city. */
export async function rankedListings(db: Db, params: RankedListingsParams) {
  const result = await searchCategory(db, params);
  const category = requireResolved(result.category, "category", params.category);
  if (result.unknown === "city") requireResolved(null, "city", params.city);
  return {
    category: resolvedCategory(category),
    city: result.city ? resolvedCity(result.city) : null,
    businesses: result.businesses.map((business) => toListing(business, params.baseUrl)),
    total: result.businesses.length,
    rankingModel: RANKING_DISCLOSURE,
  };
}

/** Cities with at least one servable business in a category, most listings first. */
export async function availableCities(db: Db, params: { category: string; limit: number }) {
  const category = requireResolved(await resolveCategory(db, params.category), "category", params.category);
  const cities = await citiesWithListings(db, { category, limit: params.limit });
  return { category: resolvedCategory(category), cities, total: cities.length };
}

async function citiesWithListings(db: Db, params: { category: Category; limit: number }) {
  const { category, limit } = params;
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

/** A category+city pair rarely holds more; the cap keeps the in-memory sort bounded. */
const LISTICLE_CANDIDATES = 1_000;

/**
 * Listings for a category and city ordered by the public completeness score, then name. The score
 * is computed from the profile, so the candidates are read and sorted here rather than in SQL.
 */
export async function listicle(db: Db, params: { category: string; city: string; limit: number; baseUrl: string }) {
  const result = await searchCategory(db, { category: params.category, city: params.city, limit: LISTICLE_CANDIDATES });
  const category = requireResolved(result.category, "category", params.category);
  const city = requireResolved(result.city, "city", params.city);
  const scored = result.businesses.map((business) => ({ business, score: directoryCompletenessScore(business) }));
  scored.sort((a, b) => b.score - a.score || a.business.name.localeCompare(b.business.name) || a.business.id.localeCompare(b.business.id));
  const businesses = scored.slice(0, params.limit).map(({ business }) => toListing(business, params.baseUrl));
  return {
    title: `${params.limit} ${category.name.toLowerCase()} listings in ${city.name} with the most complete profiles`,
    category: resolvedCategory(category),
    city: resolvedCity(city),
    businesses,
    total: businesses.length,
    orderedBy: "directoryCompletenessScore, then name" as const,
    paidPlacement: false as const,
    disclosure: LISTICLE_DISCLOSURE,
  };
}
