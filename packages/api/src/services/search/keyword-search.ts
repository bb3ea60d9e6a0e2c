import type { Category, City, Db } from "@directory/db";
import { decodeOffsetCursor, listingFingerprint } from "../shared/opaque-cursor";
import { isPlain, readWhereWhen, type WhereWhenInput } from "../where-when/where-when-params";
import { DISTANCE_SORT, distanceDisclosure, KEYWORD_RANKING, KEYWORD_RATING, type KeywordSort } from "./disclosures";
import { bestWordSubset, fuzzyName, isMeaningfulWord, NAME_SIMILARITY, sharesMeaningfulWord, trigramSimilarity } from "./keyword-fallbacks";
import { KEYWORD_RANKED_MAX, rankByText, type KeywordScope, type TextHit } from "./keyword-ranking";
import type { ListingSource } from "./listing";
import { filteredListings } from "./category-search";
import { rankedPage } from "./ranking";
import { namesCategoryInPlace, readQuery } from "./query-reading";
import { normalizeTerm, referenceData } from "./reference-data";
import { keywordHint, swappedPointHint } from "./search-hints";
import { requireResolved, resolveCity, resolvedCategory, resolvedCity } from "./resolve";
import { candidatesPage, filterCandidates } from "./where-when-search";

/** The looser matches (names, the category alone) are read this far at most: their totalMatches counts up to it. */
const FALLBACK_CANDIDATES = 50;

export type KeywordHit = ListingSource & {
  matchedBy: "full_text" | "fuzzy_name" | "category";
};

/**
 * How a keyword search found its results, once per response: every word as given or as read
 * (a city or category recognised in the words, connectors such as "in" read with the city);
 * the same with misspelt words corrected; only some of the words (wordsDropped names the rest);
 * the recognised category alone; a fuzzy match on business names; or nothing at all.
 */
export type KeywordMatch = "all_words" | "corrected_words" | "some_words" | "category" | "fuzzy_name" | "nothing";

export interface KeywordResult {
  city: City | null;
  unknownCity: boolean;
  /** The first `limit` hits, in order. */
  hits: KeywordHit[];
  /** All hits of the way that matched (text: up to the candidate caps; names or category: up to FALLBACK_CANDIDATES). */
  totalMatches: number;
  matchedBy: KeywordMatch;
  wordsUsed: string[];
  wordsDropped: string[];
  corrections: { from: string; to: string }[];
  /** The words that named the city, when the city came from the query rather than the city argument. */
  cityWords: string[];
  /** The country searched in (the country argument, or named by the words), when no city narrows it further. */
  country: string | null;
  countryWords: string[];
  category: Category | null;
}

/**
 * Free-text search, one round trip when the words as given match: the hot path is unchanged by
 * everything below it, which runs only on a miss, cheapest first. The query read against the
 * in-memory reference data (a city or category in the words, misspellings corrected); a trigram
 * match on the name when it is close enough to be the business asked for (the slow path); the
 * best subset of the words (wordsDropped says which were left out); the recognised category alone;
 * and last any looser name match. A category named in a place (namesCategoryInPlace) is looked for
 * in that place only, and never answered by names. `country` (upper-case ISO code) bounds it all.
 */
export async function searchByKeyword(
  db: Db,
  params: { query: string; city?: string | undefined; country?: string | undefined; limit: number; sort?: KeywordSort },
): Promise<KeywordResult> {
  const sort = params.sort ?? "relevance";
  const givenCity = params.city ? await resolveCity(db, params.city, params.country) : null;
  const givenScope: KeywordScope = { city: givenCity, country: givenCity ? null : (params.country ?? null) };
  const asGiven = normalizeTerm(params.query).split(" ").filter(Boolean);
  const result = (hits: ListingSource[], listingMatch: KeywordHit["matchedBy"], rest: Partial<KeywordResult> & { matchedBy: KeywordMatch }): KeywordResult => ({
    city: givenCity,
    country: givenScope.country,
    countryWords: [],
    unknownCity: false,
    hits: hits.slice(0, params.limit).map((record) => ({ ...withoutCount(record), matchedBy: listingMatch })),
    totalMatches: (hits[0] as Partial<TextHit> | undefined)?.totalMatches ?? hits.length,
    wordsUsed: asGiven,
    wordsDropped: [],
    corrections: [],
    cityWords: [],
    category: null,
    ...rest,
  });
  if (params.city && !givenCity) return { ...result([], "full_text", { matchedBy: "nothing" }), unknownCity: true };

  const fullText = await rankByText(db, params.query, givenScope, params.limit, sort);
  if (fullText.length > 0) return result(fullText, "full_text", { matchedBy: "all_words" });

  const reading = readQuery(await referenceData(db), params.query, { cityGiven: givenCity !== null, country: params.country ?? null });
  const city = reading.city ?? givenCity;
  const scope: KeywordScope = { city, country: city ? null : (reading.country ?? givenScope.country) };
  const read = { ...scope, corrections: reading.corrections, cityWords: reading.cityWords, countryWords: reading.countryWords, category: reading.category };
  const readMatch = reading.corrections.length > 0 ? "corrected_words" : "all_words";
  const changed = reading.city !== null || reading.country !== null || reading.corrections.length > 0;
  if (changed && reading.words.length > 0) {
    const readText = await rankByText(db, reading.words.join(" "), scope, params.limit, sort);
    if (readText.length > 0) return result(readText, "full_text", { ...read, wordsUsed: reading.words, matchedBy: readMatch });
  }

  // A category in a place: the place's words are no business's name to match (query-reading.ts).
  const byNames = !namesCategoryInPlace(reading);
  const fuzzy = byNames ? await fuzzyName(db, params.query, scope, Math.max(params.limit, FALLBACK_CANDIDATES), sort) : [];
  const byName = result(fuzzy, "fuzzy_name", { ...read, wordsUsed: asGiven, matchedBy: "fuzzy_name" });
  if (fuzzy.some((hit) => trigramSimilarity(hit.name, params.query) >= NAME_SIMILARITY)) return byName;

  // Fewer words, or the category alone, answer only with a word the query gave: "unicorn groomer"
  // read as "union grocer" and cut to "grocer" shares no word with it, and is not its answer.
  const keepsGivenWord = (words: string[]) => words.some((word) => asGiven.includes(word) && isMeaningfulWord(word));
  const kept = await bestWordSubset(db, reading, scope);
  if (kept && keepsGivenWord(kept)) {
    const partial = await rankByText(db, kept.join(" "), scope, params.limit, sort);
    const dropped = reading.words.filter((word) => !kept.includes(word));
    if (partial.length > 0) return result(partial, "full_text", { ...read, wordsUsed: kept, wordsDropped: dropped, matchedBy: "some_words" });
  }
  const category = reading.category && keepsGivenWord(reading.categoryWords) ? reading.category : null;
  if (!category) read.category = null;
  if (reading.category && category) {
    const page = await rankedPage(db, {
      categorySlug: reading.category.slug,
      cityId: city?.id ?? null,
      country: scope.country,
      limit: Math.max(params.limit, FALLBACK_CANDIDATES),
      sort: sort === "rating" ? "rating" : "ranking",
    });
    const others = reading.words.filter((word) => !reading.categoryWords.includes(word));
    if (page.records.length > 0)
      return result(page.records, "category", { ...read, wordsUsed: reading.categoryWords, wordsDropped: others, matchedBy: "category" });
  }
  // The loosest answer: only names that share a meaningful word with the query, else honestly nothing.
  const related = fuzzy.filter((hit) => sharesMeaningfulWord(hit.name, [...asGiven, ...reading.words]));
  if (related.length > 0) return result(related, "fuzzy_name", { ...read, wordsUsed: asGiven, matchedBy: "fuzzy_name" });
  return result([], "full_text", { ...read, wordsUsed: reading.words, matchedBy: "nothing" });
}

/** A text hit as a listing source: the count belongs to the whole result. */
function withoutCount(record: ListingSource | TextHit): ListingSource {
  if (!("totalMatches" in record)) return record;
  const { totalMatches: _, ...source } = record;
  return source;
}

export interface KeywordSearchParams extends WhereWhenInput {
  query: string;
  city?: string | undefined;
  /** Only this country's listings (upper-case ISO 3166-1 alpha-2); a named city is looked up in it. */
  country?: string | undefined;
  limit: number;
  sort?: KeywordSort | typeof DISTANCE_SORT | undefined;
  cursor?: string | undefined;
  baseUrl: string;
}

/**
 * searchByKeyword as the procedures answer it, a page at a time: listings, how they matched and
 * which words did; 404 for an unknown city. A page is an offset into the ranked matches (relevance
 * has no keyset), so page n reads the first n pages' rows: bounded by the candidate caps, which
 * bound the cursor's offset too (KEYWORD_RANKED_MAX). With the
 * where-when filters, every ranked candidate is read and filtered (filterCandidates), in relevance
 * (or rating) order, or nearest first with sort=distance (equal distances in relevance order).
 */
export async function keywordSearch(db: Db, params: KeywordSearchParams) {
  const sort = params.sort ?? "relevance";
  const whereWhen = readWhereWhen(params);
  const plain = isPlain(whereWhen);
  const filters = plain ? [] : [whereWhen.openKey, whereWhen.near];
  // Without a country the fingerprint is what it was before country existed: its cursors stay valid.
  const inCountry = params.country ? ["country", params.country] : [];
  const fingerprint = listingFingerprint([
    "keyword",
    normalizeTerm(params.query),
    params.city ? normalizeTerm(params.city) : null,
    sort,
    ...filters,
    ...inCountry,
  ]);
  const listing = { fingerprint, maxOffset: KEYWORD_RANKED_MAX };
  const offset = params.cursor && plain ? decodeOffsetCursor(params.cursor, listing) : 0;
  const textSort = sort === DISTANCE_SORT ? "relevance" : sort;
  const result = await searchByKeyword(db, {
    query: params.query,
    city: params.city,
    country: params.country,
    sort: textSort,
    limit: plain ? offset + params.limit : KEYWORD_RANKED_MAX,
  });
  if (result.unknownCity) await requireResolved(db, null, "city", params.city);
  const page = plain
    ? candidatesPage({ kept: result.hits, distances: null, totalMatches: result.totalMatches }, { limit: params.limit, cursor: params.cursor, listing })
    : candidatesPage(await filterCandidates(db, result.hits, whereWhen, sort === DISTANCE_SORT), { limit: params.limit, cursor: params.cursor, listing });
  const { businesses, ...counts } = await filteredListings(db, page, whereWhen, params.baseUrl);
  // A search around a point that found nothing may have its coordinates swapped; else what the words did.
  const swapped = page.total === 0 && whereWhen.near ? await swappedPointHint(db, whereWhen.near.point) : undefined;
  const hint = swapped ?? (await keywordHint(db, result, params.query));
  return {
    query: params.query,
    city: result.city ? resolvedCity(result.city) : null,
    cityFromWords: result.cityWords.length > 0 ? result.cityWords.join(" ") : null,
    country: result.country,
    countryFromWords: result.countryWords.length > 0 ? result.countryWords.join(" ") : null,
    category: result.category ? resolvedCategory(result.category) : null,
    matchedBy: result.matchedBy,
    wordsUsed: result.wordsUsed,
    wordsDropped: result.wordsDropped,
    corrections: result.corrections,
    ...(hint ? { hint } : {}),
    businesses: businesses.map((listing, index) => ({ ...listing, matchedBy: page.records[index]!.matchedBy })),
    ...counts,
    rankingModel: sort === "rating" ? KEYWORD_RATING : sort === DISTANCE_SORT ? distanceDisclosure("are in text-relevance order") : KEYWORD_RANKING,
  };
}
