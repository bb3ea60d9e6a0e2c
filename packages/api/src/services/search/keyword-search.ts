import { and, asc, desc, eq, sql, type SQL } from "drizzle-orm";
import { businessSearch, businesses, buyerQuestions, cityLexeme, preparedQuery, rowsOf, type Category, type City, type Db } from "@directory/db";
import { servableCondition } from "../entities/servable";
import { decodeOffsetCursor, listingFingerprint } from "../shared/opaque-cursor";
import { selectBusinessRecords } from "../entities/business-lookup";
import { isPlain, readWhereWhen, type WhereWhenInput } from "../where-when/where-when-params";
import { DISTANCE_SORT, distanceDisclosure, KEYWORD_CANDIDATES, KEYWORD_RANKING, KEYWORD_RATING, type KeywordSort } from "./disclosures";
import { selectListings, type ListingSource } from "./listing";
import { RATING_ORDER, ratingOrderOf } from "./rating-order";
import { CATEGORY_QUERIES, filteredListings } from "./category-search";
import { readQuery, type QueryReading } from "./query-reading";
import { normalizeTerm, referenceData } from "./reference-data";
import { requireResolved, resolveCity, resolvedCategory, resolvedCity } from "./resolve";
import { candidatesPage, filterCandidates } from "./where-when-search";

/** Buyer questions can only add so many candidates; the text index does the rest. */
const QUESTION_CANDIDATES = 200;

/** The looser matches (names, the category alone) are read this far at most: their totalMatches counts up to it. */
const FALLBACK_CANDIDATES = 50;

export type KeywordHit = ListingSource & {
  matchedBy: "full_text" | "fuzzy_name" | "category";
};

/** A ranked text match also carries the number of all candidates it was ranked among. */
type TextHit = ListingSource & { totalMatches: number };

/**
 * How a keyword search found its results, once per response: every word as given or as read
 * (a city or category recognised in the words, connectors such as "in" read with the city);
 * the same with misspelt words corrected; only some of the words (wordsDropped names the rest);
 * the recognised category alone; a fuzzy match on business names; or nothing at all.
 */
export type KeywordMatch = "all_words" | "corrected_words" | "some_words" | "category" | "fuzzy_name" | "nothing";

/** A fuzzy name hit this similar to the query is the business asked for, not a loose guess. */
const NAME_SIMILARITY = 0.45;

/** Relaxation tries subsets of at most this many words: C(6, 3) = 20 alternatives at worst. */
const MAX_RELAXED_WORDS = 6;

/** Words that say nothing alone: a partial match never keeps them, so "on" cannot stand in for "open on sunday". */
const FUNCTION_WORDS = new Set(["a", "an", "the", "and", "or", "on", "in", "at", "of", "for", "to", "with", "near", "me", "my", "by"]);

/** servableCondition, on the narrow table's copy of status and expiry. */
const servableSearchRow = servableCondition(businessSearch);

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
  category: Category | null;
}

/**
 * Free-text search, one round trip when the words as given match: the hot path is unchanged by
 * everything below it, which runs only on a miss, cheapest first. The query read against the
 * in-memory reference data (a city or category in the words, misspellings corrected); a trigram
 * match on the name when it is close enough to be the business asked for (the slow path); the
 * best subset of the words (wordsDropped says which were left out); the recognised category alone;
 * and last any looser name match.
 */
export async function searchByKeyword(db: Db, params: { query: string; city?: string; limit: number; sort?: KeywordSort }): Promise<KeywordResult> {
  const sort = params.sort ?? "relevance";
  const givenCity = params.city ? await resolveCity(db, params.city) : null;
  const asGiven = normalizeTerm(params.query).split(" ").filter(Boolean);
  const result = (hits: ListingSource[], listingMatch: KeywordHit["matchedBy"], rest: Partial<KeywordResult> & { matchedBy: KeywordMatch }): KeywordResult => ({
    city: givenCity,
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

  const fullText = await rankByText(db, params.query, givenCity, params.limit, sort);
  if (fullText.length > 0) return result(fullText, "full_text", { matchedBy: "all_words" });

  const reading = readQuery(await referenceData(db), params.query, { cityGiven: givenCity !== null });
  const city = reading.city ?? givenCity;
  const read = { city, corrections: reading.corrections, cityWords: reading.cityWords, category: reading.category, wordsUsed: reading.words };
  const readMatch = reading.corrections.length > 0 ? "corrected_words" : "all_words";
  const changed = reading.city !== null || reading.corrections.length > 0;
  if (changed && reading.words.length > 0) {
    const readText = await rankByText(db, reading.words.join(" "), city, params.limit, sort);
    if (readText.length > 0) return result(readText, "full_text", { ...read, matchedBy: readMatch });
  }

  const fuzzy = await fuzzyName(db, params.query, city, Math.max(params.limit, FALLBACK_CANDIDATES), sort);
  const byName = result(fuzzy, "fuzzy_name", { ...read, wordsUsed: asGiven, matchedBy: "fuzzy_name" });
  if (fuzzy.some((hit) => trigramSimilarity(hit.name, params.query) >= NAME_SIMILARITY)) return byName;

  const kept = await bestWordSubset(db, reading, city);
  if (kept) {
    const partial = await rankByText(db, kept.join(" "), city, params.limit, sort);
    const dropped = reading.words.filter((word) => !kept.includes(word));
    if (partial.length > 0) return result(partial, "full_text", { ...read, wordsUsed: kept, wordsDropped: dropped, matchedBy: "some_words" });
  }
  if (reading.category) {
    const queries = CATEGORY_QUERIES[sort === "rating" ? "rating" : "ranking"];
    const slug = reading.category.slug;
    const limit = Math.max(params.limit, FALLBACK_CANDIDATES);
    const inCategory = city ? await queries.inCity(db, { category: slug, cityId: city.id, limit }) : await queries.national(db, { category: slug, limit });
    const others = reading.words.filter((word) => !reading.categoryWords.includes(word));
    if (inCategory.length > 0)
      return result(inCategory, "category", { ...read, wordsUsed: reading.categoryWords, wordsDropped: others, matchedBy: "category" });
  }
  return fuzzy.length > 0 ? byName : result([], "full_text", { ...read, matchedBy: "nothing" });
}

/** A text hit as a listing source: the count belongs to the whole result. */
function withoutCount(record: ListingSource | TextHit): ListingSource {
  if (!("totalMatches" in record)) return record;
  const { totalMatches: _, ...source } = record;
  return source;
}

/** Business names similar to the query (businesses_name_trgm_idx), in the city when there is one. */
function fuzzyName(db: Db, query: string, city: City | null, limit: number, sort: KeywordSort): Promise<ListingSource[]> {
  const similarity = sql`similarity(${businesses.name}, ${query})`;
  const inCity = city ? eq(businesses.cityId, city.id) : undefined;
  return selectBusinessRecords(db)
    .where(and(sql`${businesses.name} % ${query}`, inCity, servableCondition()))
    .orderBy(...(sort === "rating" ? RATING_ORDER : [desc(similarity), asc(businesses.planTier), asc(businesses.name)]))
    .limit(limit);
}

/** Trigram similarity as pg_trgm computes it (words padded, shared trigrams over all), without a round trip. */
export function trigramSimilarity(a: string, b: string): number {
  const trigrams = (text: string) => {
    const set = new Set<string>();
    for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
      const padded = `  ${word} `;
      for (let i = 0; i + 3 <= padded.length; i++) set.add(padded.slice(i, i + 3));
    }
    return set;
  };
  const [left, right] = [trigrams(a), trigrams(b)];
  const shared = [...left].filter((trigram) => right.has(trigram)).length;
  const union = left.size + right.size - shared;
  return union === 0 ? 0 : shared / union;
}

/** Every way to keep `size` of the words, in order. */
function subsets(words: string[], size: number): string[][] {
  if (size === 0) return [[]];
  if (words.length < size) return [];
  const [first, ...rest] = words;
  return [...subsets(rest, size - 1).map((subset) => [first!, ...subset]), ...subsets(rest, size)];
}

/**
 * The most words that still match together, as few fewer as needed: one query per number of
 * words dropped, each asking for any subset of that size (an OR of ANDs in one GIN lookup) and
 * answering the words the best-ranked of its first candidates holds. The words naming a category
 * stay in every subset: "vegan bakery open sunday" may lose "vegan", never "bakery".
 */
async function bestWordSubset(db: Db, reading: QueryReading, city: City | null): Promise<string[] | null> {
  const words = [...new Set(reading.words)].filter((word) => !FUNCTION_WORDS.has(word));
  const required = words.filter((word) => reading.categoryWords.includes(word));
  const optional = words.filter((word) => !required.includes(word)).slice(0, MAX_RELAXED_WORDS);
  if (optional.length === 0 || words.length < 2) return null;
  const lexeme = (word: string) => sql`plainto_tsquery('simple', ${word})`;
  const all = (list: string[]) => sql.join(list.map(lexeme), sql` && `);
  const inCity = city
    ? sql`and ${businessSearch.cityId} = ${city.id} and ${businessSearch.document} @@ (quote_literal(${cityLexeme(city.id)}))::tsquery`
    : sql``;
  for (let size = optional.length - 1; size >= (required.length > 0 ? 0 : 1); size--) {
    const alternatives = subsets(optional, size).map((subset) => sql`(${all([...required, ...subset])})`);
    const matching = sql.join(alternatives, sql` || `);
    const hits = sql.join(
      words.map((word) => sql`${businessSearch.document} @@ ${lexeme(word)}`),
      sql`, `,
    );
    const found = await db.execute(sql`select hits from (
        select array[${hits}] as hits, ts_rank(${businessSearch.document}, ${matching}) as rank, ${businessSearch.businessId} as id
        from ${businessSearch}
        where ${businessSearch.document} @@ (${matching}) and ${servableSearchRow} ${inCity}
        limit ${sql.raw(String(KEYWORD_CANDIDATES))}
      ) candidates order by rank desc, id limit 1`);
    const row = rowsOf<{ hits: boolean[] }>(found)[0];
    if (row) return words.filter((_, index) => row.hits[index]);
  }
  return null;
}

/**
 * One round trip, a prepared statement: matches and ranks a bounded candidate set on the narrow
 * business_search table (business_search_document_idx; a city is one more lexeme in the same GIN
 * lookup), then reads the listing columns of the `limit` winners only. Candidates carry their rank,
 * not their tsvector, so the union that merges text and buyer-question matches sorts small rows.
 */
function rankedByTextQuery(withCity: boolean, sort: KeywordSort): SQL {
  const words = sql`websearch_to_tsquery('simple', ${sql.placeholder("query")})`;
  const matching = withCity ? sql`(${words} && (quote_literal(${sql.placeholder("cityLexeme")}))::tsquery)` : words;
  const inCity = withCity ? eq(businessSearch.cityId, sql.placeholder("cityId")) : undefined;
  const candidate = sql`select ${businessSearch.businessId} as business_id, ts_rank(${businessSearch.document}, ${words}) as rank, ${businessSearch.planTier} as plan_tier, ${businessSearch.name} as name from ${businessSearch}`;
  const questionMatches = sql`select distinct ${buyerQuestions.businessId} from ${buyerQuestions}
    where ${buyerQuestions.businessId} is not null and to_tsvector('simple', ${buyerQuestions.question} || ' ' || coalesce(${buyerQuestions.answer}, '')) @@ ${words}
    limit ${sql.raw(String(QUESTION_CANDIDATES))}`;
  // sort=rating reads the candidates' ratings (at most KEYWORD_CANDIDATES + QUESTION_CANDIDATES rows).
  const byRating = sort === "rating";
  const rated = byRating ? sql`join ${businesses} rated on rated.id = candidates.business_id` : sql``;
  const [rating, reviewCount, name, id] = ["rated.rating", "rated.review_count", "rated.name", "rated.id"].map((column) => sql.raw(column));
  const candidateOrder = byRating
    ? ratingOrderOf({ rating: rating!, reviewCount: reviewCount!, name: name!, id: id! })
    : sql`rank desc, plan_tier, name, business_id`;
  const finalOrder = byRating ? sql.join(RATING_ORDER, sql`, `) : sql`ranked.rank desc, ${businesses.planTier}, ${businesses.name}, ${businesses.id}`;
  // Two index lookups joined by union: an OR of the two in one WHERE makes PostgreSQL scan the table.
  // count(*) over () counts the candidates before the limit: they are all read and sorted anyway.
  return sql`${selectListings(sql`ranked.total_matches as "totalMatches"`)}
    join (
      select business_id, rank, (count(*) over ())::int as total_matches from (
        (${candidate} where ${businessSearch.document} @@ ${matching} and ${servableSearchRow} limit ${sql.raw(String(KEYWORD_CANDIDATES))})
        union
        (${candidate} where ${and(sql`${businessSearch.businessId} in (${questionMatches})`, inCity, servableSearchRow)})
      ) candidates
      ${rated}
      order by ${candidateOrder}
      limit ${sql.placeholder("limit")}
    ) ranked on ranked.business_id = ${businesses.id}
    order by ${finalOrder}`;
}

/** One prepared statement per order and scope; the default's SQL is what it was before sort existed. */
const RANKED_BY_TEXT = {
  relevance: {
    everywhere: preparedQuery<TextHit>(rankedByTextQuery(false, "relevance")),
    inCity: preparedQuery<TextHit>(rankedByTextQuery(true, "relevance")),
  },
  rating: {
    everywhere: preparedQuery<TextHit>(rankedByTextQuery(false, "rating")),
    inCity: preparedQuery<TextHit>(rankedByTextQuery(true, "rating")),
  },
} satisfies Record<KeywordSort, unknown>;

function rankByText(db: Db, query: string, city: City | null, limit: number, sort: KeywordSort): Promise<TextHit[]> {
  const queries = RANKED_BY_TEXT[sort];
  return city ? queries.inCity(db, { query, cityLexeme: cityLexeme(city.id), cityId: city.id, limit }) : queries.everywhere(db, { query, limit });
}

/** Most candidates a keyword search ranks: the text index's and the buyer questions' caps together. */
const KEYWORD_RANKED_MAX = KEYWORD_CANDIDATES + QUESTION_CANDIDATES;

export interface KeywordSearchParams extends WhereWhenInput {
  query: string;
  city?: string | undefined;
  limit: number;
  sort?: KeywordSort | typeof DISTANCE_SORT | undefined;
  cursor?: string | undefined;
  baseUrl: string;
}

/**
 * searchByKeyword as the procedures answer it, a page at a time: listings, how they matched and
 * which words did; 404 for an unknown city. A page is an offset into the ranked matches (relevance
 * has no keyset), so page n reads the first n pages' rows: bounded by the candidate caps. With the
 * where-when filters, every ranked candidate is read and filtered (filterCandidates), in relevance
 * (or rating) order, or nearest first with sort=distance (equal distances in relevance order).
 */
export async function keywordSearch(db: Db, params: KeywordSearchParams) {
  const sort = params.sort ?? "relevance";
  const whereWhen = readWhereWhen(params);
  const plain = isPlain(whereWhen);
  const filters = plain ? [] : [whereWhen.openKey, whereWhen.near];
  const fingerprint = listingFingerprint(["keyword", normalizeTerm(params.query), params.city ? normalizeTerm(params.city) : null, sort, ...filters]);
  const offset = params.cursor && plain ? decodeOffsetCursor(params.cursor, fingerprint).offset : 0;
  const textSort = sort === DISTANCE_SORT ? "relevance" : sort;
  const result = await searchByKeyword(db, {
    query: params.query,
    city: params.city,
    sort: textSort,
    limit: plain ? offset + params.limit : KEYWORD_RANKED_MAX,
  });
  if (result.unknownCity) await requireResolved(db, null, "city", params.city);
  const page = plain
    ? candidatesPage({ kept: result.hits, distances: null, totalMatches: result.totalMatches }, { limit: params.limit, cursor: params.cursor, fingerprint })
    : candidatesPage(await filterCandidates(db, result.hits, whereWhen, sort === DISTANCE_SORT), { limit: params.limit, cursor: params.cursor, fingerprint });
  const { businesses, ...counts } = filteredListings(page, whereWhen, params.baseUrl);
  return {
    query: params.query,
    city: result.city ? resolvedCity(result.city) : null,
    cityFromWords: result.cityWords.length > 0 ? result.cityWords.join(" ") : null,
    category: result.category ? resolvedCategory(result.category) : null,
    matchedBy: result.matchedBy,
    wordsUsed: result.wordsUsed,
    wordsDropped: result.wordsDropped,
    corrections: result.corrections,
    businesses: businesses.map((listing, index) => ({ ...listing, matchedBy: page.records[index]!.matchedBy })),
    ...counts,
    rankingModel: sort === "rating" ? KEYWORD_RATING : sort === DISTANCE_SORT ? distanceDisclosure("are in text-relevance order") : KEYWORD_RANKING,
  };
}
