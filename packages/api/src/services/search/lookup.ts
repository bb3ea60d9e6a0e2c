import type { Db } from "@directory/db";
import { attributionsOfBusinesses } from "../registry/attribution-reads";
import { publicUrls } from "../shared/public-urls";
import { invalidParameter, type WhereWhenInput } from "../where-when/where-when-params";
import { categoryDisclosure, rankedListings, searchCategory } from "./category-search";
import { SCORE_CONTRACT_VERSION, type CategorySort, type DISTANCE_SORT } from "./disclosures";
import { toListing } from "./listing";
import { referenceData } from "./reference-data";
import { describeMiss } from "./suggestions";

/**
 * The assistant plugin (spec 4.1): an unknown category or city is an empty result, as the spec's
 * shape has no room for a 404; suggestions then names the closest valid values (in memory, no query).
 */
export async function assistantPluginSearch(db: Db, params: { category: string; city: string; limit: number; sort?: CategorySort; baseUrl: string }) {
  const result = await searchCategory(db, params);
  const businesses = result.businesses.map((business) => toListing(business, params.baseUrl));
  const miss = result.unknown ? describeMiss(await referenceData(db), result.unknown, params[result.unknown]) : null;
  const attributions = await attributionsOfBusinesses(
    db,
    result.businesses.map((business) => business.id),
  );
  return {
    businesses,
    total: businesses.length,
    query: { category: params.category, city: params.city },
    browseUrl: publicUrls.browse(params.baseUrl, params.category, params.city),
    apiVersion: SCORE_CONTRACT_VERSION,
    rankingDisclosure: categoryDisclosure(params.sort),
    suggestions: miss && { unknown: miss.kind, input: miss.input, closest: miss.suggestions, message: miss.message },
    // Beyond the spec's envelope, like apiVersion: the licence notices its imported listings owe.
    attributions,
  };
}

export interface LookupBusinessesParams extends WhereWhenInput {
  /** Both required unless near is given. */
  category?: string | undefined;
  city?: string | undefined;
  /** Only this country's listings (upper-case ISO 3166-1 alpha-2). */
  country?: string | undefined;
  limit: number;
  cursor?: string | undefined;
  sort?: CategorySort | typeof DISTANCE_SORT | undefined;
  baseUrl: string;
}

/**
 * /api/v2/businesses: says what the query resolved to, 404 naming an unknown category or city, pages
 * by keyset cursor; with near, category and city are optional (the circle bounds the search); with
 * country, the city is (a whole country's listings).
 */
export async function lookupBusinesses(db: Db, params: LookupBusinessesParams) {
  if (!params.city && !params.near && !params.country)
    throw invalidParameter("city", "give a city, a country (ISO 3166-1 alpha-2), or near=<lat>,<lng> to search around a point");
  const { rankingModel, ...found } = await rankedListings(db, params);
  return { ...found, limit: params.limit, apiVersion: SCORE_CONTRACT_VERSION, rankingDisclosure: rankingModel };
}
