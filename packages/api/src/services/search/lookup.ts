import type { Db } from "@directory/db";
import { publicUrls } from "../shared/public-urls";
import { categoryDisclosure, searchCategory } from "./category-search";
import { SCORE_CONTRACT_VERSION, type CategorySort } from "./disclosures";
import { toListing } from "./listing";
import { referenceData } from "./reference-data";
import { describeMiss } from "./suggestions";
import { rankedPage } from "./ranking";
import { requireResolved, resolveCategory, resolveCity, resolvedCategory, resolvedCity } from "./resolve";

/**
 * The assistant plugin (spec 4.1): an unknown category or city is an empty result, as the spec's
 * shape has no room for a 404; suggestions then names the closest valid values (in memory, no query).
 */
export async function assistantPluginSearch(db: Db, params: { category: string; city: string; limit: number; sort?: CategorySort; baseUrl: string }) {
  const result = await searchCategory(db, params);
  const businesses = result.businesses.map((business) => toListing(business, params.baseUrl));
  const miss = result.unknown ? describeMiss(await referenceData(db), result.unknown, params[result.unknown]) : null;
  return {
    businesses,
    total: businesses.length,
    query: { category: params.category, city: params.city },
    browseUrl: publicUrls.browse(params.baseUrl, params.category, params.city),
    apiVersion: SCORE_CONTRACT_VERSION,
    rankingDisclosure: categoryDisclosure(params.sort),
    suggestions: miss && { unknown: miss.kind, input: miss.input, closest: miss.suggestions, message: miss.message },
  };
}

export interface LookupBusinessesParams {
  category: string;
  city: string;
  limit: number;
  cursor?: string;
  sort?: CategorySort;
  baseUrl: string;
}

/** /api/v2/businesses: says what the query resolved to, 404 naming an unknown category or city, pages by keyset cursor. */
export async function lookupBusinesses(db: Db, params: LookupBusinessesParams) {
  const [foundCategory, foundCity] = await Promise.all([resolveCategory(db, params.category), resolveCity(db, params.city)]);
  const category = await requireResolved(db, foundCategory, "category", params.category);
  const city = await requireResolved(db, foundCity, "city", params.city);
  const page = await rankedPage(db, { categorySlug: category.slug, cityId: city.id, limit: params.limit, cursor: params.cursor, sort: params.sort });
  const listings = page.records.map((business) => toListing(business, params.baseUrl));
  return {
    category: resolvedCategory(category),
    city: resolvedCity(city),
    businesses: listings,
    total: listings.length,
    totalMatches: page.total,
    nextCursor: page.nextCursor,
    limit: params.limit,
    apiVersion: SCORE_CONTRACT_VERSION,
    rankingDisclosure: categoryDisclosure(params.sort),
  };
}
