import { and, eq, sql, type SQL } from "drizzle-orm";
import { businesses, preparedQuery, type Category, type City, type Db } from "@directory/db";
import { listingFingerprint } from "../shared/opaque-cursor";
import type { BusinessRecord } from "../entities/business-lookup";
import { servableCondition } from "../entities/servable";
import { attributionsOfBusinesses } from "../registry/attribution-reads";
import { invalidParameter, isPlain, readWhereWhen, type WhereWhen, type WhereWhenInput } from "../where-when/where-when-params";
import { directoryCompletenessScore, SELECT_LISTINGS, toListing, type ListingSource } from "./listing";
import {
  DISTANCE_SORT,
  distanceDisclosure,
  LISTICLE_DISCLOSURE,
  LISTICLE_RATING_DISCLOSURE,
  RANKING_DISCLOSURE,
  RATING_DISCLOSURE,
  type CategorySort,
  type ListicleSort,
} from "./disclosures";
import { candidatesPage, filterCandidates, nearPage, type FilteredPage } from "./where-when-search";
import { RANKING_ORDER, rankedPage } from "./ranking";
import { RATING_ORDER } from "./rating-order";
import { emptySearchHint } from "./search-hints";
import { requireResolved, resolveCategory, resolveCity, resolvedCategory, resolvedCity } from "./resolve";

/**
 * The hot query of a category search, with placeholders (category, cityId when withCity, limit).
 * Exported so the bench's limit server runs the very same SQL text.
 */
export function categorySearchQuery(withCity: boolean, sort: CategorySort = "ranking"): SQL {
  const inCity = withCity ? eq(businesses.cityId, sql.placeholder("cityId")) : undefined;
  const order = sort === "rating" ? RATING_ORDER : RANKING_ORDER;
  return sql`${SELECT_LISTINGS}
    where ${and(eq(businesses.categorySlug, sql.placeholder("category")), inCity, servableCondition())}
    order by ${sql.join(order, sql`, `)}
    limit ${sql.placeholder("limit")}`;
}

/**
 * The hot queries, built once: no per-request query building or row mapping. One statement per
 * order, so the default path runs exactly the SQL it ran before sort existed; each is served in
 * index order (businesses_search_idx / _category_rank_idx, businesses_rating_idx / _category_rating_idx).
 */
export const CATEGORY_QUERIES = {
  ranking: { inCity: preparedQuery<ListingSource>(categorySearchQuery(true)), national: preparedQuery<ListingSource>(categorySearchQuery(false)) },
  rating: {
    inCity: preparedQuery<ListingSource>(categorySearchQuery(true, "rating")),
    national: preparedQuery<ListingSource>(categorySearchQuery(false, "rating")),
  },
} satisfies Record<CategorySort, unknown>;

/** What each category order is disclosed as, in the envelope (once per response). */
const CATEGORY_DISCLOSURES: Record<CategorySort, string> = { ranking: RANKING_DISCLOSURE, rating: RATING_DISCLOSURE };

export function categoryDisclosure(sort: CategorySort | undefined): string {
  return CATEGORY_DISCLOSURES[sort ?? "ranking"];
}

/**
 * The one ranked search: a category within one city, or across every city (city omitted: national
 * or product listings), active and unexpired businesses only, in ranking order. With a city the
 * order matches businesses_search_idx, so PostgreSQL reads only `limit` index entries and never
 * sorts. Category and city resolve from in-memory reference data, so once that is warm a search is
 * one round trip, a prepared statement that reads the listing's columns only. Unknown category or
 * city: null, and `unknown` says which.
 */
export async function searchCategory(db: Db, params: { category: string; city?: string; limit: number; sort?: CategorySort }) {
  const [category, city] = await Promise.all([resolveCategory(db, params.category), params.city ? resolveCity(db, params.city) : Promise.resolve(null)]);
  if (!category) return { category: null, city, businesses: [] as ListingSource[], unknown: "category" as const };
  if (params.city && !city) return { category, city: null, businesses: [] as ListingSource[], unknown: "city" as const };
  const queries = CATEGORY_QUERIES[params.sort ?? "ranking"];
  const records = city
    ? await queries.inCity(db, { category: category.slug, cityId: city.id, limit: params.limit })
    : await queries.national(db, { category: category.slug, limit: params.limit });
  return { category, city, businesses: records, unknown: null };
}

export interface RankedListingsParams extends WhereWhenInput {
  /** Required unless near is given (then every category around the point). */
  category?: string | undefined;
  /** Omitted: across every city (national or product listings), or around near. */
  city?: string | undefined;
  /** Only this country's listings (upper-case ISO 3166-1 alpha-2); a named city is looked up in it. */
  country?: string | undefined;
  limit: number;
  sort?: CategorySort | typeof DISTANCE_SORT | undefined;
  cursor?: string | undefined;
  baseUrl: string;
}

/** What a category search's order is disclosed as, sort=distance included (its ties: the ranking). */
export function searchOrderDisclosure(sort: CategorySort | typeof DISTANCE_SORT | undefined): string {
  return sort === DISTANCE_SORT ? distanceDisclosure("are in the ranking order (plan tier, then internal score, then name)") : categoryDisclosure(sort);
}

/**
 * The category and city a search names, resolved (404 naming an unknown one; a city in the
 * country when one is given); a category is needed unless near names a point.
 */
export async function resolveSearchScope(
  db: Db,
  params: { category?: string | undefined; city?: string | undefined; country?: string | undefined },
  whereWhen: WhereWhen,
) {
  if (!params.category && !whereWhen.near) throw invalidParameter("category", "give a category, or near=<lat>,<lng> to search every category around a point");
  const [foundCategory, foundCity] = await Promise.all([
    params.category ? resolveCategory(db, params.category) : null,
    params.city ? resolveCity(db, params.city, params.country) : null,
  ]);
  const category = params.category ? await requireResolved(db, foundCategory, "category", params.category) : null;
  const city = params.city ? await requireResolved(db, foundCity, "city", params.city) : null;
  return { category, city };
}

/**
 * The page of a category search under its where-when parameters: within near's circle (nearPage),
 * open at an instant (rankedPage's open filter), or the plain ranked page; in `country` when given.
 */
export async function categorySearchPage(
  db: Db,
  params: {
    category: Category | null;
    city: City | null;
    country?: string | undefined;
    sort: CategorySort | typeof DISTANCE_SORT;
    limit: number;
    cursor?: string | undefined;
    whereWhen: WhereWhen;
  },
): Promise<FilteredPage<BusinessRecord>> {
  const { category, city, whereWhen } = params;
  const country = city ? null : (params.country ?? null);
  if (whereWhen.near) return nearPage(db, { ...params, categorySlug: category?.slug ?? null, cityId: city?.id ?? null, country });
  if (!category || params.sort === DISTANCE_SORT) throw new Error("categorySearchPage: a category, and sort=distance only with near, are checked before");
  const open = whereWhen.at && whereWhen.openKey ? { at: whereWhen.at, key: whereWhen.openKey, timeZone: city?.timeZone ?? null } : null;
  const page = await rankedPage(db, {
    categorySlug: category.slug,
    cityId: city?.id ?? null,
    country,
    limit: params.limit,
    cursor: params.cursor,
    sort: params.sort,
    open,
  });
  return { ...page, distances: null };
}

/**
 * What every filtered listing's envelope says alike: the page's listings with their where-when
 * fields, the counts, the cursor, and the licence notices the page's imported listings owe (the one
 * place a search answer gains them, so every search and door carries them alike).
 */
export async function filteredListings(db: Db, page: FilteredPage<ListingSource>, whereWhen: WhereWhen, baseUrl: string) {
  const context = { at: whereWhen.at, distances: page.distances };
  const attributions = await attributionsOfBusinesses(
    db,
    page.records.map((business) => business.id),
  );
  return {
    businesses: page.records.map((business) => toListing(business, baseUrl, context)),
    total: page.records.length,
    totalMatches: page.total,
    nextCursor: page.nextCursor,
    ...(page.excludedUnknownHours === undefined ? {} : { excludedUnknownHours: page.excludedUnknownHours }),
    attributions,
  };
}

/**
 * A category search as the agent-facing procedures answer it, one page at a time (keyset paging,
 * the matches counted beside the first page): 404 naming an unknown category or city. With near,
 * the category is optional and the search is within the circle; with openNow/openAt, only open
 * businesses (excludedUnknownHours says how many were left out for unknown hours).
 */
export async function rankedListings(db: Db, params: RankedListingsParams) {
  const sort = params.sort ?? "ranking";
  const whereWhen = readWhereWhen(params);
  const { category, city } = await resolveSearchScope(db, params, whereWhen);
  const page = await categorySearchPage(db, { category, city, country: params.country, sort, limit: params.limit, cursor: params.cursor, whereWhen });
  const hint = page.total === 0 ? await emptySearchHint(db, { category, city, country: params.country ?? null, whereWhen }) : undefined;
  return {
    category: category ? resolvedCategory(category) : null,
    city: city ? resolvedCity(city) : null,
    ...(hint ? { hint } : {}),
    ...(await filteredListings(db, page, whereWhen, params.baseUrl)),
    rankingModel: searchOrderDisclosure(sort),
  };
}

/** A category+city pair rarely holds more; the cap keeps the in-memory sort bounded (and is how deep its cursor may go). */
export const LISTICLE_CANDIDATES = 1_000;

/** How each listicle order is named, titled and disclosed. */
const LISTICLE_ORDERS = {
  completeness: {
    orderedBy: "directoryCompletenessScore, then name",
    title: (count: number, category: string, city: string) => `${count} ${category} listings in ${city} with the most complete profiles`,
    disclosure: LISTICLE_DISCLOSURE,
  },
  rating: {
    orderedBy: "rating, then review count, then name",
    title: (count: number, category: string, city: string) => `${count} best-rated ${category} listings in ${city}`,
    disclosure: LISTICLE_RATING_DISCLOSURE,
  },
} as const;

/**
 * Listings for a category and city ordered by the public completeness score, then name; or with
 * sort=rating, by rating (the category search's rating order and keyset paging). The score is
 * computed from the profile, so for it the candidates (at most LISTICLE_CANDIDATES) are read and
 * sorted here rather than in SQL, and a page is an offset into them.
 */
export async function listicle(
  db: Db,
  params: WhereWhenInput & {
    category: string;
    city: string;
    /** The city is looked up in this country (a listicle is one city's, so that is the whole filter). */
    country?: string | undefined;
    limit: number;
    sort?: ListicleSort | typeof DISTANCE_SORT | undefined;
    cursor?: string | undefined;
    baseUrl: string;
  },
) {
  const sort = params.sort ?? "completeness";
  const whereWhen = readWhereWhen(params);
  const [foundCategory, foundCity] = await Promise.all([resolveCategory(db, params.category), resolveCity(db, params.city, params.country)]);
  const category = await requireResolved(db, foundCategory, "category", params.category);
  const city = await requireResolved(db, foundCity, "city", params.city);
  const page = await listiclePage(db, { category, city, sort, limit: params.limit, cursor: params.cursor, whereWhen });
  const order = sort === DISTANCE_SORT ? LISTICLE_BY_DISTANCE : LISTICLE_ORDERS[sort];
  return {
    title: order.title(params.limit, category.name.toLowerCase(), city.name),
    category: resolvedCategory(category),
    city: resolvedCity(city),
    ...(await filteredListings(db, page, whereWhen, params.baseUrl)),
    orderedBy: order.orderedBy,
    paidPlacement: false as const,
    disclosure: order.disclosure,
  };
}

const LISTICLE_BY_DISTANCE = {
  orderedBy: "distance, then directoryCompletenessScore, then name",
  title: (count: number, category: string, city: string) => `${count} nearest ${category} listings in ${city}`,
  disclosure: distanceDisclosure("are ordered by directoryCompletenessScore, then name. Not a paid placement: plan tier plays no part in this order"),
} as const;

type ListicleParams = {
  category: Category;
  city: City;
  sort: ListicleSort | typeof DISTANCE_SORT;
  limit: number;
  cursor?: string | undefined;
  whereWhen: WhereWhen;
};

/**
 * A listicle's page: by rating, the category search's ranked page (its filters in SQL); by
 * completeness (or by distance, ties by completeness), the candidates scored here, filtered
 * (filterCandidates) and paged by offset.
 */
function listiclePage(db: Db, params: ListicleParams): Promise<FilteredPage<ListingSource>> {
  if (params.sort === "rating") return categorySearchPage(db, { ...params, sort: "rating" });
  return completenessPage(db, params);
}

async function completenessPage(db: Db, params: ListicleParams): Promise<FilteredPage<ListingSource>> {
  const { category, city, whereWhen } = params;
  const plain = isPlain(whereWhen);
  // A plain listicle's fingerprint is what it was before the filters existed: its cursors stay valid.
  const fingerprint = listingFingerprint(["listicle", category.slug, city.id, ...(plain ? [] : [whereWhen.openKey, whereWhen.near, params.sort])]);
  const candidates = await CATEGORY_QUERIES.ranking.inCity(db, { category: category.slug, cityId: city.id, limit: LISTICLE_CANDIDATES });
  const ranked = byCompleteness(candidates);
  const filtered = plain ? { kept: ranked, distances: null } : await filterCandidates(db, ranked, whereWhen, params.sort === DISTANCE_SORT);
  return candidatesPage(filtered, { limit: params.limit, cursor: params.cursor, listing: { fingerprint, maxOffset: LISTICLE_CANDIDATES } });
}

function byCompleteness(candidates: ListingSource[]): ListingSource[] {
  const scored = candidates.map((business) => ({ business, score: directoryCompletenessScore(business) }));
  scored.sort((a, b) => b.score - a.score || a.business.name.localeCompare(b.business.name) || a.business.id.localeCompare(b.business.id));
  return scored.map(({ business }) => business);
}
